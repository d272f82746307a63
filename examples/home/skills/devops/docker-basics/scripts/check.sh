#!/bin/sh
# Lints the Dockerfile in the current folder.
exec hadolint Dockerfile
