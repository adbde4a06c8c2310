import { createContext, useContext } from "react";

/** The CSP nonce of the current document, for the few inline scripts we render. */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
