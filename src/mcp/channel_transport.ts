/**
 * An MCP transport over a message channel: the sandbox Worker speaks MCP through the
 * warden, which relays stdio. The Worker itself never touches stdin or stdout.
 *
 * @module
 */
import type { JSONRPCMessage, Transport } from "../deps/mcp.ts";
import type { Channel } from "../worker/protocol.ts";

/** A {@linkcode Transport} whose messages travel over a {@linkcode Channel}. */
export class ChannelTransport implements Transport {
  /** Called for each incoming message (set by the SDK). */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called when the channel closes (set by the SDK). */
  onclose?: () => void;
  /** Called on transport errors (set by the SDK). */
  onerror?: (error: Error) => void;
  #channel: Channel;
  #closed = false;

  /** Creates a transport over a channel. */
  constructor(channel: Channel) {
    this.#channel = channel;
  }

  /** Starts listening. */
  start(): Promise<void> {
    this.#channel.listen((message) => this.onmessage?.(message), () => void this.close());
    return Promise.resolve();
  }

  /** Sends a message. */
  send(message: JSONRPCMessage): Promise<void> {
    if (!this.#closed) this.#channel.post(message);
    return Promise.resolve();
  }

  /** Closes the transport once. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }
}
