import { createContext, useContext } from 'react';

const NonceContext = createContext<string>('');
export const NonceProvider = NonceContext.Provider;
/** The CSP nonce of this render: every inline or external script must carry it. */
export const useNonce = () => useContext(NonceContext);
