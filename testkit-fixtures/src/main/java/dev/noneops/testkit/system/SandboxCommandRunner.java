package dev.noneops.testkit.system;

import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs the node's commands inside the sandbox ({@code nsenter} into its mount, network, UTS, IPC
 * and PID namespaces and its root) through the real command runner, so a path a command names is
 * the sandbox's and nothing it writes reaches the host's files. The network namespace is the
 * sandbox's: its own when it was booted with one (then the node's LocalDNS interface is created
 * there), else the host's. The kernel is the host's.
 */
public final class SandboxCommandRunner implements CommandRunner {
  private final CommandRunner host;
  private final SandboxRoot root;

  public SandboxCommandRunner(CommandRunner host, SandboxRoot root) {
    this.host = Objects.requireNonNull(host, "host");
    this.root = Objects.requireNonNull(root, "root");
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    return host.run(new Command(
        inside(root, command.argv()), command.env(), command.timeout(), command.maxOutputBytes()));
  }

  /** {@code argv} run inside the sandbox whose PID 1 is {@code root.pid()}. */
  public static List<String> inside(SandboxRoot root, List<String> argv) {
    List<String> full = new ArrayList<>(List.of(
        "nsenter",
        "--target",
        Long.toString(root.pid()),
        "--mount",
        "--net",
        "--uts",
        "--ipc",
        "--pid",
        "--root",
        "--wd",
        "--"));
    full.addAll(argv);
    return full;
  }
}
