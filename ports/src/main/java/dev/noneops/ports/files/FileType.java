package dev.noneops.ports.files;

/** The type of a directory entry, as {@code lstat(2)} reports it (symlinks are not followed). */
public enum FileType {
  REGULAR,
  DIRECTORY,
  SYMLINK,
  CHAR_DEVICE,
  BLOCK_DEVICE,
  FIFO,
  SOCKET
}
