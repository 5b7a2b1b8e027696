package dev.noneops.demo;

import dev.noneops.cli.ExitCode;
import java.io.InputStream;
import java.io.PrintWriter;

/**
 * {@code bin/noneops demo --shell}: a node to try the CLI on by hand, kept until the operator is
 * done, instead of a story told to its end.
 */
interface SandboxShell {

  /**
   * Prepares the node, says how to run {@code noneops} on it, waits until {@code stop} ends and
   * removes the node again.
   *
   * @param out what was prepared and the command lines to use
   * @param stop read to its end (or until the process is signalled) before the node is removed
   * @param options what the operator asked for
   */
  ExitCode open(PrintWriter out, InputStream stop, Options options) throws Exception;

  /**
   * @param root whether this process runs as root (a sandboxed systemd needs it)
   * @param bytesPerSecond how fast the artifact server sends each download
   */
  record Options(boolean root, long bytesPerSecond) {}
}
