package dev.noneops.core.node.internal.phases;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.internal.render.UnitFile;
import dev.noneops.core.node.internal.render.UnitFileWriter;
import dev.noneops.ports.files.HostFiles;
import java.nio.file.Path;
import java.util.List;

/**
 * The agent's units: the recovery gate {@value HostPaths#RECOVERY_GATE_UNIT}, the drop-in that
 * makes each of the stack's units require it and start after it, and the daemon's unit
 * {@value HostPaths#AGENT_UNIT}.
 *
 * <p>The gate is a oneshot that runs {@code noneops recover --at-boot}: at boot it finishes an
 * interrupted upgrade (commit, or roll back to the journal's previous version) before LocalDNS,
 * containerd or kubelet start, so none of them ever runs from a half-switched node. When it
 * fails, the units that require it do not start (systemd's {@code dependency} result) and the
 * gate's journal says why. Started on a live node (a stack unit started by an operation pulls it
 * in), it finds the node lock held and passes.
 */
public final class AgentUnits {
  /** The name of the drop-in each of the stack's units gets. */
  public static final String GATE_DROP_IN = "05-noneops-recover.conf";

  private AgentUnits() {}

  /**
   * The gate's unit. It runs only when there is something to recover: systemd starts its JVM when
   * one of the files whose presence means interrupted work is in the node's {@code layout}
   * (triggering conditions, {@code |}: at least one must hold) — an upgrade's journal, its saved
   * configuration, a teardown's note, something in the install's staging directory (an empty one
   * stays after the class-data archive is made), a version's removal
   * tombstone, a durable write's temp entry in the layout — and the daemon has not started in this
   * boot yet (its run-time directory, on the tmpfs {@code /run}, is not there: the node is booting,
   * not live). Otherwise systemd skips the gate (its start job is done, the unit stays inactive with
   * {@code ConditionResult=no}) and the units that require it start at once: a clean boot starts no
   * JVM before the stack. What a skipped gate would have swept — temp files of interrupted writes
   * in the configuration's directories — is swept by the daemon's recovery at its start, and
   * none of them is read by the stack (hidden names with a random suffix).
   */
  public static byte[] recoveryGate(HostPaths paths, Layout layout) {
    Path root = layout.root();
    return UnitFileWriter.render(UnitFile.builder()
        .section("Unit")
        .set(
            "Description",
            "noneops recovery gate: finish an interrupted node operation before the stack starts")
        .set("After", "local-fs.target")
        .set("Before", String.join(" ", HostPaths.STACK_UNITS))
        .set("ConditionPathExists", "!" + paths.agentRunDir())
        .set("ConditionPathExists", "|" + layout.journal())
        .set("ConditionPathExists", "|" + layout.confsnap())
        .set("ConditionPathExists", "|" + layout.teardownMarker())
        .set("ConditionDirectoryNotEmpty", "|" + layout.staging())
        .set("ConditionPathExistsGlob", "|" + root.resolve(Layout.REMOVING_PREFIX) + "*")
        .set("ConditionPathExistsGlob", "|" + root.resolve(HostFiles.TEMP_PREFIX) + "*")
        .section("Service")
        .set("Type", "oneshot")
        .set("RemainAfterExit", "yes")
        .exec(
            "ExecStart",
            UnitFile.Command.of(paths.agentLauncher().toString(), "recover", "--at-boot"))
        .set("TimeoutStartSec", "10min")
        .set("SyslogIdentifier", "noneops-recover")
        .section("Install")
        .set("WantedBy", "multi-user.target")
        .build());
  }

  /** The drop-in of each stack unit: require the gate and start after it. */
  public static byte[] gateDropIn() {
    return UnitFileWriter.render(UnitFile.builder()
        .section("Unit")
        .set("Requires", HostPaths.RECOVERY_GATE_UNIT)
        .set("After", HostPaths.RECOVERY_GATE_UNIT)
        .build());
  }

  /** Where {@code unit}'s gate drop-in lives. */
  public static Path gateDropInPath(HostPaths paths, String unit) {
    return paths.unit(unit + ".d").resolve(GATE_DROP_IN);
  }

  /**
   * The daemon's unit: {@code Type=notify} (ready once its start-up recovery is done), a
   * watchdog it keeps alive, restarted always, a stop timeout long enough to finish the step it is
   * in, and the JVM's status after a SIGTERM (143) counted as a clean stop.
   */
  public static byte[] daemon(HostPaths paths, Path configFile) {
    return UnitFileWriter.render(UnitFile.builder()
        .section("Unit")
        .set("Description", "noneops agent: keeps the node as its configuration file says")
        .set("Wants", "network-online.target")
        .set("After", "network-online.target " + HostPaths.RECOVERY_GATE_UNIT)
        .section("Service")
        .set("Type", "notify")
        .set("NotifyAccess", "main")
        .exec(
            "ExecStart",
            UnitFile.Command.of(
                paths.agentLauncher().toString(), "daemon", "--config", configFile.toString()))
        .set("Restart", "always")
        .set("RestartSec", "5")
        // the JVM ends a SIGTERM with 128 + 15: a stop, not a failure
        .set("SuccessExitStatus", "143")
        .set("WatchdogSec", "120")
        .set("TimeoutStartSec", "15min")
        .set("TimeoutStopSec", "90")
        .set("SyslogIdentifier", "noneops-agent")
        .section("Install")
        .set("WantedBy", "multi-user.target")
        .build());
  }

  /**
   * The JVM options the launcher adds for {@code noneops daemon}, after the build's own (so that
   * they win): the daemon lives as long as the node and holds little, where the build's options
   * are a short command's. A young generation of at most 4 MB (the serial GC touches the whole of
   * it between collections, and a daemon that allocates a few KB a tick gains nothing from more),
   * an old generation that gives back what it does not need after a collection (the heap's cap
   * stays the build's: an upgrade's work needs it), 256 KB thread stacks, one compiler thread and
   * a code cache sized for C1's code.
   */
  public static final List<String> DAEMON_JVM_OPTIONS = List.of(
      "-XX:MaxNewSize=4m",
      "-XX:MinHeapFreeRatio=10",
      "-XX:MaxHeapFreeRatio=30",
      "-Xss256k",
      "-XX:CICompilerCount=1",
      "-XX:ReservedCodeCacheSize=16m");

  /**
   * The launcher script of a build: the agent's java, its options, its class-data archive and its
   * jar; for {@code noneops daemon} (its first argument {@code daemon}, as the daemon's unit runs
   * it) the options of {@link #DAEMON_JVM_OPTIONS} after the build's.
   */
  public static String launcher(AgentSetup agent, Path jar) {
    StringBuilder out = new StringBuilder("#!/bin/sh\n")
        .append(HostPaths.UNIT_MARKER)
        .append('\n')
        .append("# noneops agent build ")
        .append(agent.buildId())
        .append('\n')
        .append("if [ \"${1-}\" = daemon ]; then\n  ");
    exec(out, agent, jar, DAEMON_JVM_OPTIONS);
    out.append("fi\n");
    exec(out, agent, jar, List.of());
    return out.toString();
  }

  private static void exec(StringBuilder out, AgentSetup agent, Path jar, List<String> more) {
    out.append("exec ").append(quote(agent.java().toString()));
    for (String option : agent.jvmOptions()) {
      out.append(' ').append(quote(option));
    }
    for (String option : more) {
      out.append(' ').append(quote(option));
    }
    // An archive that is missing or does not match the jar or the JVM is ignored silently.
    out.append(' ').append(quote("-XX:SharedArchiveFile=" + AgentClassData.archiveOf(jar)));
    out.append(" -jar ").append(quote(jar.toString())).append(" \"$@\"\n");
  }

  /**
   * Whether {@code path} is one of the agent's own files (its builds, command link, man page
   * links, units and the stack's gate drop-ins), which an upgrade neither changes nor saves.
   */
  public static boolean isAgentFile(HostPaths paths, Path path) {
    if (path.startsWith(paths.agentHome())
        || path.equals(paths.agentCommand())
        || paths.agentManDir().equals(path.getParent())
        || path.equals(paths.unit(HostPaths.RECOVERY_GATE_UNIT))
        || path.equals(paths.unit(HostPaths.AGENT_UNIT))) {
      return true;
    }
    for (String unit : HostPaths.STACK_UNITS) {
      if (path.equals(gateDropInPath(paths, unit))) {
        return true;
      }
    }
    return false;
  }

  public static List<String> units() {
    return List.of(HostPaths.RECOVERY_GATE_UNIT, HostPaths.AGENT_UNIT);
  }

  private static String quote(String word) {
    return "'" + word + "'";
  }
}
