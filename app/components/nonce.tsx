import { createContext, useContext } from 'react';

/**
 * The request's Content-Security-Policy nonce (app/cli/server.js makes one per request): inline
 * scripts carry it, so the policy needs no 'unsafe-inline' for scripts. In the browser it reads
 * '' (browsers hide nonces from the page), which React leaves as it is when hydrating.
 */
const NonceContext = createContext('');
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
