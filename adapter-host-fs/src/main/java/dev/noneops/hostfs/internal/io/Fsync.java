package dev.noneops.hostfs.internal.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code fsync(2)} of a directory, which makes the entries created, renamed or removed in it
 * durable, or of one entry, which makes its own data and metadata (mode, owner) durable.
 */
public final class Fsync {

  private Fsync() {}

  /** Opens {@code dir} read-only and fsyncs it; errors carry the errno. */
  public static void directory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      throw IoErrors.translate(e, "fsync", dir);
    }
  }

  /**
   * Opens the regular file or directory {@code entry} read-only without following a final
   * symlink (ELOOP for one) and fsyncs it; errors carry the errno.
   */
  public static void entry(Path entry) throws IOException {
    try (FileChannel channel =
        FileChannel.open(entry, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      channel.force(true);
    } catch (IOException e) {
      throw IoErrors.translate(e, "fsync", entry);
    }
  }
}
