package dev.noneops.demo;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.sandbox.SandboxCli;
import dev.noneops.testkit.fixtures.sandbox.SandboxDisk;
import dev.noneops.testkit.fixtures.sandbox.SandboxLoopbackRelay;
import dev.noneops.testkit.fixtures.sandbox.SandboxNetwork;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.system.RecoveryGateBoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The agent as separate JVMs running {@code noneops.jar} inside a sandboxed systemd (its
 * namespaces and root, so it finds the sandbox's system bus and file system at their usual paths),
 * on a {@link SandboxDisk} that outlives the sandbox and in a network namespace of the sandbox's
 * own, which reaches the demo's artifact server through a {@link SandboxLoopbackRelay}. A power
 * cut SIGKILLs the sandbox's PID 1, which ends every process in it at once; the reboot boots a new
 * sandbox on the same disk (with a new network namespace, to which the relay is opened again).
 */
final class SandboxAgent implements Agent, AutoCloseable {
  static final Duration BOOT_TIMEOUT = Duration.ofSeconds(120);
  private static final String CURRENT = "/opt/unbounded/node/current";

  private final SandboxDisk disk;
  private final String name;
  private final int serverPort;
  private SystemdSandbox sandbox;
  private SandboxLoopbackRelay relay;
  private SandboxCli cli;
  private int boots;

  private SandboxAgent(SandboxDisk disk, String name, int serverPort) {
    this.disk = disk;
    this.name = name;
    this.serverPort = serverPort;
  }

  /**
   * Boots the first sandbox on {@code disk}, relays the artifact server's port into it and copies
   * {@code jar} onto its disk (the sandbox has a {@code /tmp} of its own, so a checkout below the
   * host's {@code /tmp} is not visible in it).
   */
  static SandboxAgent bootFirst(SandboxDisk disk, String name, int serverPort, Path jar)
      throws IOException {
    SandboxAgent agent = new SandboxAgent(disk, name, serverPort);
    agent.boot();
    agent.cli = SandboxCli.copiedInto(agent.sandbox, jar);
    return agent;
  }

  private void boot() {
    sandbox = SystemdSandbox.boot(name + "-" + boots++, disk, SandboxNetwork.OWN, BOOT_TIMEOUT);
    relay = SandboxLoopbackRelay.open(sandbox, serverPort);
  }

  /** The sandbox running now (a new one after each {@link #reboot()}). */
  SystemdSandbox sandbox() {
    return sandbox;
  }

  @Override
  public Run run(String... args) throws Exception {
    SandboxCli.Run r = cli.run(args);
    return new Run(r.exitCode(), r.out(), r.err());
  }

  @Override
  public Run runAndCutPowerAfterTheFlip(String targetVersion, String... args) throws Exception {
    SystemdSandbox cut = sandbox;
    boolean[] fired = {false};
    List<String> progress = cli.runWatchingStderr(
        SandboxCli.progressEvent("upgrade-switch-current", "COMPLETED"),
        () -> {
          fired[0] = true;
          cut.powerCut();
          relay.close();
        },
        args);
    if (!fired[0]) {
      throw new IllegalStateException("the upgrade ended before it flipped current to "
          + targetVersion + ": " + String.join("\n", progress));
    }
    String current = Files.readSymbolicLink(disk.written(CURRENT)).toString();
    if (!current.contains(targetVersion)) {
      throw new IllegalStateException(
          "after the cut current names " + current + ", not " + targetVersion);
    }
    String last = progress.stream()
        .filter(l -> l.contains("\"task\""))
        .reduce((first, second) -> second)
        .orElse("(no progress)");
    return new Run(
        137,
        "",
        "last progress event before the cut: " + last + "\n(sandbox PID 1, systemd pid "
            + cut.pid() + ", SIGKILLed with every process in it; on its disk current -> "
            + current + ")");
  }

  @Override
  public Reboot reboot() throws Exception {
    boot();
    cli = SandboxCli.alreadyIn(sandbox);
    RecoveryGateBoot boot = RecoveryGateBoot.of(sandbox);
    relayAnswers();
    String daemon = sandbox.unitProperty(HostPaths.AGENT_UNIT, "ActiveState") + "/"
        + sandbox.unitProperty(HostPaths.AGENT_UNIT, "SubState") + " (\""
        + sandbox.unitProperty(HostPaths.AGENT_UNIT, "StatusText")
        + "\")";
    return new Reboot(
        boot.gateFinishedBeforeTheStack(),
        "systemd pid " + sandbox.pid() + " booted in " + DemoStory.seconds(sandbox.bootTime())
            + " on the same disk, in a new network namespace (the artifact server relayed into it"
            + " again); its records: " + boot.timing() + "; its journal:\n"
            + String.join("\n", boot.journal()),
        boot.gateLine(),
        HostPaths.AGENT_UNIT + " " + daemon);
  }

  /**
   * A request through the relay (to a path the server does not have) gets the server's 404:
   * the relay of this boot's network works, and its proxy runs as it did in the first boot.
   */
  void relayAnswers() {
    var answer = sandbox.exec(
        List.of(
            "curl",
            "-sS",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "--max-time",
            "10",
            "http://127.0.0.1:" + serverPort + "/no-such-artifact"),
        Duration.ofSeconds(20));
    if (!answer.stdout().strip().equals("404")) {
      throw new IllegalStateException("the artifact server does not answer inside " + sandbox + ": "
          + answer.stdout() + " " + answer.stderr().strip());
    }
  }

  @Override
  public String activeVersion() throws IOException {
    Path current = sandbox.path(CURRENT);
    return Files.isSymbolicLink(current) ? Files.readSymbolicLink(current).toString() : "(none)";
  }

  /** Stops the running sandbox and removes its disk. */
  @Override
  public void close() {
    try {
      if (relay != null) {
        relay.close();
      }
    } finally {
      disk.close();
    }
  }
}
