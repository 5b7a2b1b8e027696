package dev.noneops.cli;

import java.io.PrintWriter;

/**
 * The lifecycle demo behind {@code noneops demo}. Its orchestration needs the testkit (a sandboxed
 * systemd, a local artifact server, the simulated host), which the CLI's own jar does not carry,
 * so the testkit registers an implementation with {@link java.util.ServiceLoader} and
 * {@code bin/noneops demo} runs the CLI on the testkit's class path.
 */
public interface DemoRunner {

  /**
   * Tells the whole story and returns how it ended.
   *
   * @param out the story: each step, its outcome and duration, and the summary table
   * @param err progress of the commands the story runs
   * @param options what the operator asked for
   */
  ExitCode run(PrintWriter out, PrintWriter err, Options options) throws Exception;

  /**
   * @param simulated tell the story on the simulated host even when running as root
   * @param root whether this process runs as root (the real-systemd story needs it)
   */
  record Options(boolean simulated, boolean root) {}
}
