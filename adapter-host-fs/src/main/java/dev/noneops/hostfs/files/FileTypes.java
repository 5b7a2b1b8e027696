package dev.noneops.hostfs.files;

import dev.noneops.ports.files.FileType;

/** Decodes the file-type bits of {@code st_mode}. */
final class FileTypes {

  private static final int S_IFMT = 0170000;

  private FileTypes() {}

  static FileType of(int stMode) {
    return switch (stMode & S_IFMT) {
      case 0100000 -> FileType.REGULAR;
      case 0040000 -> FileType.DIRECTORY;
      case 0120000 -> FileType.SYMLINK;
      case 0020000 -> FileType.CHAR_DEVICE;
      case 0060000 -> FileType.BLOCK_DEVICE;
      case 0010000 -> FileType.FIFO;
      case 0140000 -> FileType.SOCKET;
      default ->
        throw new IllegalArgumentException(
            "unknown file type in st_mode 0" + Integer.toOctalString(stMode));
    };
  }
}
