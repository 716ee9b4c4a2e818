/** The modes of what only the owner may read (secrets, the order journal, a batch's copy of stdin). */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
