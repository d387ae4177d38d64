/**
 * The part of `ws` (a dependency of @kubernetes/client-node, without its own types here) that the
 * fake Kubernetes API server uses to answer exec upgrades.
 */
declare module 'ws' {
  import type { IncomingMessage } from 'node:http';
  import type { Duplex } from 'node:stream';

  export interface ServerSocket {
    readonly protocol: string;
    send(data: Buffer | string): void;
    close(code?: number): void;
    terminate(): void;
    on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): this;
    on(event: 'close', listener: () => void): this;
  }

  export class WebSocketServer {
    constructor(options: { noServer: true; handleProtocols?: (protocols: Set<string>) => string | false });
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (socket: ServerSocket) => void): void;
    close(): void;
  }
}
