package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Installs the agent build at its stable host path and writes its units: the build's jar and
 * launcher (each written durably, then renamed into place), the {@code current} link switched to
 * it atomically, the command link on {@code PATH}, the recovery gate with the stack's drop-ins
 * that require it, and the daemon's unit. Every path is recorded in the ownership record, so a
 * reset removes exactly these (and puts back a {@code /usr/local/bin/noneops} that was there
 * before). Idempotent: a second run over the same build changes nothing.
 */
final class InstallAgentPhase {
  private static final int FILE_MODE = 0644;
  private static final int EXEC_MODE = 0755;
  private static final int DIR_MODE = 0755;

  private final NodeParts node;

  InstallAgentPhase(NodeParts node) {
    this.node = node;
  }

  /** Installs the build and its units; reloads systemd when a unit changed. */
  void run(AgentSetup agent) throws IOException {
    HostPaths paths = node.paths();
    SharedFileWriter writer = new SharedFileWriter(node.ports().files(), node.ownership());
    Path build = paths.agentHome().resolve(agent.buildId());
    Path jar = build.resolve("lib/noneops.jar");
    writer.write(jar, agent.jar().read(), FILE_MODE, DIR_MODE);
    writer.write(
        build.resolve("bin/noneops"),
        AgentUnits.launcher(agent, jar).getBytes(StandardCharsets.UTF_8),
        EXEC_MODE,
        DIR_MODE);
    writer.link(paths.agentCurrent(), agent.buildId());
    writer.link(paths.agentCommand(), paths.agentLauncher().toString());
    boolean unitsChanged = writer.write(
        paths.unit(HostPaths.RECOVERY_GATE_UNIT), AgentUnits.recoveryGate(paths), FILE_MODE);
    for (String unit : HostPaths.STACK_UNITS) {
      unitsChanged |=
          writer.write(AgentUnits.gateDropInPath(paths, unit), AgentUnits.gateDropIn(), FILE_MODE);
    }
    unitsChanged |= writer.write(
        paths.unit(HostPaths.AGENT_UNIT), AgentUnits.daemon(paths, agent.configFile()), FILE_MODE);
    if (unitsChanged) {
      node.ports().systemd().daemonReload();
    }
  }

  /** Enables the gate and the daemon, and starts the daemon. */
  void startDaemon() {
    node.ports().systemd().enable(AgentUnits.units());
    node.stack().start(HostPaths.AGENT_UNIT);
  }
}
