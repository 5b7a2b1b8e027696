package dev.noneops.cli;

import java.io.IOException;

/**
 * Opens a {@link HostSession}: the real host in production (the wiring's D-Bus and kernel
 * adapters), a simulated host in tests and the unprivileged demo. Commands never build ports
 * themselves, so every command can run against either.
 */
@FunctionalInterface
public interface HostConnector {
  HostSession connect() throws IOException;

  /**
   * A session for a command that only reads the node ({@code status}, {@code
   * allocation-launch-check}); by default {@link #connect()}. The real host's reports mount ids
   * from the mount table instead of binding {@code statx}: such a command never compares them, and
   * a native binding costs a short command a noticeable part of its run time.
   */
  default HostSession connectToRead() throws IOException {
    return connect();
  }
}
