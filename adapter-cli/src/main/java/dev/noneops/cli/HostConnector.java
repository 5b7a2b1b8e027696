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
}
