/// <reference types="@remix-run/dev" />

import '@remix-run/node';
declare module '@remix-run/node' {
  interface AppLoadContext {
    /** the client's IP address, set by the server (app/cli/server.js) */
    clientIp?: string;
  }
}
