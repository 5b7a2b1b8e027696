package dev.noneops.ports.kernel;

import java.io.IOException;
import java.util.Optional;

/**
 * The kernel settings a node needs: its modules and its sysctls.
 *
 * <p>Module names are {@code [A-Za-z0-9_-]+} and sysctl keys dotted names such as
 * {@code net.ipv4.ip_forward}; anything else is an {@link IllegalArgumentException}, raised before
 * the host is asked. Failures are {@link dev.noneops.ports.HostIOException}s (see the package
 * {@code dev.noneops.ports}): {@link dev.noneops.ports.Errno#ENOENT} for a module the kernel does
 * not have.
 */
public interface KernelTuning {

  /** Loads the module now ({@code modprobe}); loading a loaded module changes nothing. */
  void loadModule(String name) throws IOException;

  /**
   * Applies every sysctl preset of the host now, as systemd-sysctl does at boot: the {@code .conf}
   * files of {@code /etc/sysctl.d}, {@code /run/sysctl.d} and {@code /usr/lib/sysctl.d} (a name in
   * an earlier directory hides the same name in a later one), in name order, then
   * {@code /etc/sysctl.conf}. Every key the kernel has is set, whatever else fails. A key it lacks
   * is skipped; whether that is also a failure (ENOENT) is the host's {@code sysctl}'s choice
   * (procps 4 skips it silently; a key prefixed with {@code -} never fails), so a caller that needs
   * a key in force reads it back with {@link #sysctl}.
   */
  void applySysctlPresets() throws IOException;

  /** The current value of the sysctl {@code key}; empty when the kernel has no such key. */
  Optional<String> sysctl(String key) throws IOException;

  /**
   * Whether {@link #loadModule} would find the module: it is loaded or built in, or the kernel's
   * module tree has it. Changes nothing.
   */
  boolean moduleAvailable(String name) throws IOException;
}
