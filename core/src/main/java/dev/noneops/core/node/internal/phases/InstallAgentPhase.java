package dev.noneops.core.node.internal.phases;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Installs the agent build at its stable host path and writes its units: the build's jar and
 * launcher (each written durably, then renamed into place), its class-data archive ({@link
 * AgentClassData}), the {@code current} link switched to
 * it atomically, the command link on {@code PATH}, a link per man page where {@code man} finds it
 * (through {@code current}, so the switch switches the pages too), the recovery gate with the stack's drop-ins
 * that require it, and the daemon's unit. Every path is recorded in the ownership record, so a
 * reset removes exactly these (and puts back a {@code /usr/local/bin/noneops} that was there
 * before). The build that was current before is kept, named by the {@code previous} link; older
 * builds it installed are removed. Idempotent: a second run over the same build changes nothing.
 */
public final class InstallAgentPhase {
  private static final int FILE_MODE = 0644;
  private static final int EXEC_MODE = 0755;
  private static final int DIR_MODE = 0755;
  /** The link, in the agent's home, to the build that was current before the current one. */
  private static final String PREVIOUS = "previous";

  private static final String MAN_SECTION = "share/man/man1";
  private static final Pattern MAN_PAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}\\.1");

  private final PhaseContext node;

  public InstallAgentPhase(PhaseContext node) {
    this.node = node;
  }

  /**
   * Installs the build and its units, reloads systemd when a unit changed, and removes the builds
   * older than the previous one ({@link OldAgentBuilds}).
   *
   * @return whether what the daemon runs changed (its build, launcher or unit): a daemon already
   *     running must be restarted to run it
   */
  public boolean run(AgentSetup agent) throws IOException {
    HostPaths paths = node.paths();
    SharedFileWriter writer = new SharedFileWriter(node.ports().files(), node.ownership());
    Path build = paths.agentHome().resolve(agent.buildId());
    Path jar = build.resolve("lib/noneops.jar");
    boolean changed = writer.write(jar, agent.jar().read(), FILE_MODE, DIR_MODE);
    changed |= writer.write(
        build.resolve("bin/noneops"),
        AgentUnits.launcher(agent, jar).getBytes(StandardCharsets.UTF_8),
        EXEC_MODE,
        DIR_MODE);
    new AgentClassData(node, writer).ensure(agent, jar);
    Set<String> pages = writeManPages(writer, build, agent);
    Optional<String> before = linkTarget(writer, paths.agentCurrent());
    changed |= writer.link(paths.agentCurrent(), agent.buildId());
    Path previous = paths.agentHome().resolve(PREVIOUS);
    if (before.isPresent() && !before.get().equals(agent.buildId())) {
      writer.link(previous, before.get());
    }
    writer.link(paths.agentCommand(), paths.agentLauncher().toString());
    linkManPages(writer, pages);
    boolean unitsChanged = writer.write(
        paths.unit(HostPaths.RECOVERY_GATE_UNIT),
        AgentUnits.recoveryGate(paths, node.layout()),
        FILE_MODE);
    for (String unit : HostPaths.STACK_UNITS) {
      unitsChanged |=
          writer.write(AgentUnits.gateDropInPath(paths, unit), AgentUnits.gateDropIn(), FILE_MODE);
    }
    boolean daemonChanged = writer.write(
        paths.unit(HostPaths.AGENT_UNIT), AgentUnits.daemon(paths, agent.configFile()), FILE_MODE);
    if (unitsChanged || daemonChanged) {
      node.ports().systemd().daemonReload();
    }
    Set<String> keep = new HashSet<>(List.of(agent.buildId()));
    linkTarget(writer, previous).ifPresent(keep::add);
    new OldAgentBuilds(node.ports().files(), writer).prune(paths.agentHome(), keep);
    return changed || daemonChanged;
  }

  /** The target of a link the node made; empty when it made none there. */
  private Optional<String> linkTarget(SharedFileWriter writer, Path link) throws IOException {
    Optional<OwnedEntry> entry = writer.record().get(link);
    if (entry.isEmpty() || entry.get().kind() != OwnedEntry.Kind.SYMLINK) {
      return Optional.empty();
    }
    Optional<FileMeta> meta = node.ports().files().lstat(link);
    return meta.isPresent() && meta.get().isSymlink()
        ? Optional.of(node.ports().files().readLink(link))
        : Optional.empty();
  }

  /** The build's man pages, in its {@code share/man/man1}, before the build becomes current. */
  private static Set<String> writeManPages(SharedFileWriter writer, Path build, AgentSetup agent)
      throws IOException {
    Map<String, byte[]> pages = new TreeMap<>(agent.manPages().read());
    for (Map.Entry<String, byte[]> page : pages.entrySet()) {
      if (!MAN_PAGE.matcher(page.getKey()).matches()) {
        throw new IOException("not a section-1 man page file name: '" + page.getKey() + "'");
      }
      writer.write(
          build.resolve(MAN_SECTION).resolve(page.getKey()), page.getValue(), FILE_MODE, DIR_MODE);
    }
    return pages.keySet();
  }

  /**
   * A link per page in the man directory, through {@code current} so the build switch switches
   * them too; links of an earlier build's pages that this build has not are removed. Only the
   * node's own links are touched there: each is in the ownership record.
   */
  private void linkManPages(SharedFileWriter writer, Set<String> pages) throws IOException {
    HostPaths paths = node.paths();
    for (String page : pages) {
      writer.link(
          paths.agentManDir().resolve(page),
          paths.agentCurrent().resolve(MAN_SECTION).resolve(page).toString());
    }
    for (OwnedEntry entry : writer.record().entries()) {
      Path path = entry.path();
      if (entry.kind() == OwnedEntry.Kind.SYMLINK
          && paths.agentManDir().equals(path.getParent())
          && !pages.contains(String.valueOf(path.getFileName()))) {
        writer.removeOwned(path);
      }
    }
  }

  /**
   * Enables the gate and the daemon, and starts the daemon; restarts it when it runs already and
   * {@code changed} (another build or unit was installed), so that what runs is what is installed.
   */
  public void startDaemon(boolean changed) {
    node.ports().systemd().enable(AgentUnits.units());
    if (changed && node.stack().isActive(HostPaths.AGENT_UNIT)) {
      node.stack().restart(HostPaths.AGENT_UNIT);
    } else {
      node.stack().start(HostPaths.AGENT_UNIT);
    }
  }
}
