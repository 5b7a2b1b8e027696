package dev.noneops.cli.wiring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.freedesktop.dbus.bin.EmbeddedDBusDaemon;

/**
 * A private D-Bus daemon inside this JVM, listening on a socket in a fresh temporary directory,
 * for the class-data sharing training run ({@code cds-training}): the systemd adapter connects
 * to it, so the archive holds the D-Bus client's classes (transport, authentication, messages,
 * errors) even when it is built on a host without a system bus. No systemd runs on it, so the
 * adapter's first call fails once connected; the training expects that.
 */
final class TrainingBus implements AutoCloseable {
  private static final long START_TIMEOUT_MILLIS = 10_000;

  private final Path dir;
  private final String address;
  private final EmbeddedDBusDaemon daemon;

  private TrainingBus(Path dir, String address, EmbeddedDBusDaemon daemon) {
    this.dir = dir;
    this.address = address;
    this.daemon = daemon;
  }

  /** Starts the daemon and waits until it accepts connections. */
  static TrainingBus start() throws IOException {
    Path dir;
    try {
      dir = Files.createTempDirectory("noneops-cds-bus");
    } catch (IOException e) {
      throw new IOException(
          "cannot create a directory for the training D-Bus daemon in "
              + System.getProperty("java.io.tmpdir") + ": " + e,
          e);
    }
    String address = "unix:path=" + dir.resolve("bus");
    try {
      EmbeddedDBusDaemon daemon = new EmbeddedDBusDaemon(address + ",listen=true");
      daemon.startInBackgroundAndWait(START_TIMEOUT_MILLIS);
      return new TrainingBus(dir, address, daemon);
    } catch (Exception e) {
      deleteQuietly(dir);
      throw new IOException(
          "cannot start the training D-Bus daemon at " + address + ": " + e.getMessage(), e);
    }
  }

  /** The address clients connect to, {@code unix:path=<socket>}. */
  String address() {
    return address;
  }

  @Override
  public void close() throws IOException {
    try {
      daemon.close();
    } finally {
      deleteQuietly(dir);
    }
  }

  private static void deleteQuietly(Path dir) {
    try {
      Files.deleteIfExists(dir.resolve("bus"));
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // A leftover empty directory in the temp dir is harmless; the training run must not fail on
      // it.
    }
  }
}
