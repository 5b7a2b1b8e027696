package dev.noneops.core.config;

import dev.noneops.core.NoneopsException;
import java.nio.file.Path;

/**
 * Root was asked to follow a file that a user or group other than root can change: the file, or a
 * directory above it, or a link on the way to it, is not root's or is writable by its group or by
 * others. Thrown before anything on the host changes. The message is one line naming the file, the
 * entry that makes it unsafe, that entry's owner and mode, and why.
 */
public final class WritableByOthersException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String entry;
  private final int uid;
  private final int mode;

  WritableByOthersException(String role, Path file, Path entry, int uid, int mode, String why) {
    super(role + " " + file + " is refused: " + entry + " (owner " + uid + ", mode "
        + octal(mode) + ") " + why + "; root follows only a file that no user or group but root"
        + " can write, nor any directory above it");
    this.file = file.toString();
    this.entry = entry.toString();
    this.uid = uid;
    this.mode = mode;
  }

  /** The file root was asked to follow, as it was named. */
  public Path file() {
    return Path.of(file);
  }

  /** The entry on the way to it (the file itself, a directory above it, a link) that others can change. */
  public Path entry() {
    return Path.of(entry);
  }

  /** The entry's owner. */
  public int uid() {
    return uid;
  }

  /** The entry's permission bits. */
  public int mode() {
    return mode;
  }

  static String octal(int mode) {
    return String.format("%04o", mode & 07777);
  }
}
