package dev.noneops.ports.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the {@link HostInfo} of the machine the agent runs on, and the facts a preflight asks
 * about it: whether this process is privileged, the swap in use, the space left on a file system, and which boot this is.
 */
public interface HostFacts {
  HostInfo read() throws IOException;

  /** Whether this process runs with the effective user id 0 (root). */
  boolean privileged() throws IOException;

  /** The swap areas in use ({@code /proc/swaps}'s file names); empty when swap is off. */
  List<String> swaps() throws IOException;

  /**
   * The bytes an unprivileged writer may still use on the file system holding {@code path}, or its
   * nearest existing ancestor when {@code path} does not exist yet.
   */
  long usableBytes(Path path) throws IOException;

  /**
   * Identifies the current boot ({@code /proc/sys/kernel/random/boot_id}): the same for every
   * process until the host reboots, a different one after.
   */
  String bootId() throws IOException;
}
