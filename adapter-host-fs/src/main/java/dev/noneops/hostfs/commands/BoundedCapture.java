package dev.noneops.hostfs.commands;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains a stream to its end, keeping only the first {@code limit} bytes. Reading on past the
 * limit (and discarding) is what keeps a chatty child from blocking on a full pipe.
 */
final class BoundedCapture implements Runnable {

  private final InputStream in;
  private final int limit;
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

  BoundedCapture(InputStream in, int limit) {
    this.in = in;
    this.limit = limit;
  }

  @Override
  public void run() {
    byte[] buffer = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        synchronized (this) {
          int room = (int) Math.max(0, Math.min(n, limit - (long) kept.size()));
          kept.write(buffer, 0, room);
        }
      }
    } catch (IOException e) {
      // The pipe closed under us (the process was destroyed): what was read so far is the output.
    }
  }

  /** The bytes kept so far, decoded as UTF-8. */
  synchronized String text() {
    return kept.toString(StandardCharsets.UTF_8);
  }
}
