package dev.noneops.daemon;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.config.UrlRedaction;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.ports.HostPorts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Applies the configuration file's valid content through the node's operations, as the CLI does:
 * a configuration of the running version applied, one of another version upgraded to and
 * committed, under the node lock. A configuration already applied is left as it is, a target
 * whose upgrade rolled back is quarantined (until the file changes), a busy node tried again at
 * the next tick; each outcome is logged and recorded.
 */
final class ConfigApplier {
  private final HostPorts ports;
  private final HostPaths paths;
  private final BiFunction<Optional<AgentConfig>, Optional<AgentConfig>, Node> nodes;
  private final Path configFile;
  private final Duration pollInterval;
  private final Consumer<String> status;
  private final Logger log;
  private final DaemonJournal journal;

  /**
   * @param nodes makes a node bound to a configuration and the one a rollback restores
   * @param configFile the file the configuration comes from, which the log lines name
   * @param pollInterval when a busy node is tried again, which the log says
   * @param status where the daemon's one-line status goes
   */
  ConfigApplier(
      HostPorts ports,
      HostPaths paths,
      BiFunction<Optional<AgentConfig>, Optional<AgentConfig>, Node> nodes,
      Path configFile,
      Duration pollInterval,
      Consumer<String> status,
      Logger log,
      DaemonJournal journal) {
    this.ports = ports;
    this.paths = paths;
    this.nodes = nodes;
    this.configFile = configFile;
    this.pollInterval = pollInterval;
    this.status = status;
    this.log = log;
    this.journal = journal;
  }

  /**
   * Applies {@code desired}, the file's configuration.
   *
   * @return whether the file is handled (false: try again at the next tick)
   */
  boolean apply(AgentConfig desired) {
    Optional<AgentConfig> applied;
    try {
      applied = new AppliedConfigStore(ports.files(), paths).read();
    } catch (IOException | RuntimeException e) {
      log.error("cannot read the applied configuration: {}", DaemonJournal.message(e));
      return false;
    }
    String digest = ConfigDigest.of(desired).hex();
    if (applied.isPresent() && ConfigDigest.of(applied.get()).hex().equals(digest)) {
      return true;
    }
    if (journal.read().isQuarantined(digest)) {
      log.warn(
          "{} asks for a target that rolled back; it stays quarantined until the file changes",
          configFile);
      return true;
    }
    Node node = nodes.apply(Optional.of(desired), applied);
    journal.operationBegins();
    try {
      Optional<String> active = node.version();
      if (active.isEmpty()) {
        log.error(
            "no node is installed on this host: bootstrap it first; not applying {}", configFile);
        return true;
      }
      String wanted = node.goalState().rootFs().versionName();
      if (wanted.equals(active.get())) {
        status.accept("applying " + configFile);
        node.apply();
        journal
            .ending(Level.INFO, "apply", "APPLIED", active, active, Optional.empty())
            .log("applied {} to version {}", configFile, active.get());
        journal.record("apply", "APPLIED", "applied the configuration to " + active.get());
        journal.update(s -> s.withQuarantined(List.of()));
      } else {
        status.accept("upgrading " + active.get() + " → " + wanted);
        node.upgradeAndCommit(new UpgradeOptions(false, true));
        journal
            .ending(
                Level.INFO, "upgrade", "COMMITTED", active, Optional.of(wanted), Optional.empty())
            .log("upgraded {} → {}", active.get(), wanted);
        journal.record("upgrade", "COMMITTED", active.get() + " → " + wanted + " committed");
        journal.update(s -> s.withQuarantined(List.of()));
      }
      return true;
    } catch (NodeBusyException busy) {
      log.info("the node is busy ({}); trying again in {}", busy.operation(), pollInterval);
      return false;
    } catch (UpgradeFailedException e) {
      journal
          .ending(
              Level.ERROR,
              "upgrade",
              "ROLLED_BACK",
              Optional.of(e.previousVersion()),
              Optional.of(e.targetVersion()),
              Optional.of(e))
          .log("{}", UrlRedaction.redact(e.operatorMessage()));
      journal.record("upgrade", "ROLLED_BACK", e.operatorMessage());
      quarantine(digest, e.targetVersion(), e.operatorMessage());
      return true;
    } catch (UpgradeRefusedException e) {
      journal
          .ending(
              Level.ERROR, "upgrade", "REFUSED", Optional.empty(), Optional.empty(), Optional.of(e))
          .log("upgrade refused: {}", UrlRedaction.redact(e.operatorMessage()));
      journal.record("upgrade", "REFUSED", e.operatorMessage());
      return true;
    } catch (NoneopsException e) {
      journal
          .ending(
              Level.ERROR, "apply", "FAILED", Optional.empty(), Optional.empty(), Optional.of(e))
          .log("{}", UrlRedaction.redact(e.operatorMessage()));
      journal.record("apply", "FAILED", e.operatorMessage());
      return true;
    } finally {
      journal.operationEnds();
      status.accept("watching " + configFile);
    }
  }

  /** The file's configuration is the one target quarantined: the file has one content at a time. */
  private void quarantine(String digest, String target, String reason) {
    journal.update(s -> s.withQuarantined(
        List.of(new AgentState.Quarantine(digest, target, ports.clock().now(), reason))));
    journal.events(e -> e.quarantined(target, reason));
  }
}
