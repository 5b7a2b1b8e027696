package dev.noneops.hostfs.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads whole {@code /proc} files into one buffer that grows as needed and is reused from file to
 * file, so a scan of thousands of processes allocates no array per file. The kernel reports no
 * size for these files, so a file is read until end of file. Not thread-safe: one per scan.
 */
final class ProcFileReader {
  private static final int INITIAL_CAPACITY = 16 * 1024;

  private ByteBuffer buffer;

  ProcFileReader() {
    this(INITIAL_CAPACITY);
  }

  ProcFileReader(int initialCapacity) {
    if (initialCapacity <= 0) {
      throw new IllegalArgumentException("initial capacity must be positive: " + initialCapacity);
    }
    this.buffer = ByteBuffer.allocate(initialCapacity);
  }

  /**
   * Reads {@code file} to its end; its content is then the first {@link #length()} bytes of
   * {@link #bytes()}, valid until the next read. Errors are the JDK's (NoSuchFileException, ...).
   */
  void read(Path file) throws IOException {
    buffer.clear();
    try (FileChannel channel = FileChannel.open(file)) {
      while (true) {
        if (!buffer.hasRemaining()) {
          grow();
        }
        if (channel.read(buffer) < 0) {
          return;
        }
      }
    }
  }

  /** The buffer the last {@link #read} filled. */
  byte[] bytes() {
    return buffer.array();
  }

  /** The length of the file the last {@link #read} read. */
  int length() {
    return buffer.position();
  }

  private void grow() {
    if (buffer.capacity() > Integer.MAX_VALUE / 2) {
      throw new IllegalStateException("a /proc file larger than " + buffer.capacity() + " bytes");
    }
    ByteBuffer larger = ByteBuffer.allocate(buffer.capacity() * 2);
    buffer.flip();
    larger.put(buffer);
    buffer = larger;
  }
}
