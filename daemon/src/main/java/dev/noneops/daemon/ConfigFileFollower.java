package dev.noneops.daemon;

import com.google.common.hash.Hashing;
import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.config.UrlRedaction;
import dev.noneops.core.config.WritableByOthersException;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Follows the daemon's configuration file: reads it at each tick, unless a user or group other
 * than root can change it or a directory above it, and applies a changed, valid one through the
 * node's operations (a configuration of the running version applied, another version upgraded
 * to and committed); an invalid one is refused, a target whose upgrade rolled back quarantined
 * until the file changes. Remembers the content it acted on last (across restarts, in the state),
 * so a file that did not change does not undo an operator's own command, and tells between ticks
 * whether the file was written and then held still.
 */
final class ConfigFileFollower {
  private final HostPorts ports;
  private final HostPaths paths;
  private final BiFunction<Optional<AgentConfig>, Optional<AgentConfig>, Node> nodes;
  private final Path configFile;
  private final String hostArch;
  private final Duration pollInterval;
  private final Consumer<String> status;
  private final Logger log;
  private final DaemonJournal journal;
  private Optional<String> handledDigest = Optional.empty();
  private Optional<FileMeta> fileAtTick = Optional.empty();
  private Optional<FileMeta> fileAtSlice = Optional.empty();

  /**
   * @param nodes makes a node bound to a configuration and the one a rollback restores
   * @param status where the daemon's one-line status goes
   */
  ConfigFileFollower(
      HostPorts ports,
      HostPaths paths,
      BiFunction<Optional<AgentConfig>, Optional<AgentConfig>, Node> nodes,
      Path configFile,
      String hostArch,
      Duration pollInterval,
      Consumer<String> status,
      Logger log,
      DaemonJournal journal) {
    this.ports = ports;
    this.paths = paths;
    this.nodes = nodes;
    this.configFile = configFile;
    this.hostArch = hostArch;
    this.pollInterval = pollInterval;
    this.status = status;
    this.log = log;
    this.journal = journal;
  }

  /**
   * At the daemon's start, before it reports ready: the content acted on last is the one recorded
   * for this file, or on a first start the file's when it holds the applied configuration.
   *
   * @return the digest of that content
   */
  Optional<String> resume() {
    String file = configFile.toString();
    handledDigest = journal
        .read()
        .watching()
        .filter(w -> w.configFile().equals(file))
        .flatMap(AgentState.Watch::handledDigest);
    if (handledDigest.isEmpty()) {
      handledDigest = fileMatchingApplied();
    }
    return handledDigest;
  }

  /**
   * Whether the configuration file's metadata differs from what it was at the last tick and is
   * the same as one slice ago: written since, and no longer being written.
   */
  boolean changedAndSettled() {
    Optional<FileMeta> now = configFileMeta();
    boolean settled = now.equals(fileAtSlice);
    fileAtSlice = now;
    return settled && !now.equals(fileAtTick);
  }

  private Optional<FileMeta> configFileMeta() {
    try {
      return ports.files().lstat(configFile);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * At a tick: reads the file, unless others can change it, and applies it when its content is not
   * the one acted on last.
   */
  void follow() {
    fileAtTick = configFileMeta();
    fileAtSlice = fileAtTick;
    byte[] bytes;
    try {
      new RootOnlyPath(ports.files()).require("the configuration file", configFile);
    } catch (WritableByOthersException e) {
      refuseUntrusted(e);
      return;
    } catch (IOException e) {
      journal.once("unreadable", "cannot check " + configFile + ": " + e.getMessage());
      return;
    }
    try {
      if (!ports.files().exists(configFile)) {
        journal.once("missing", "the configuration file " + configFile + " is missing");
        return;
      }
      bytes = ports.files().read(configFile);
    } catch (IOException e) {
      journal.once("unreadable", "cannot read " + configFile + ": " + e.getMessage());
      return;
    }
    String fileDigest = Hashing.sha256().hashBytes(bytes).toString();
    if (handledDigest.equals(Optional.of(fileDigest))) {
      return;
    }
    AgentConfig desired;
    try {
      desired = AgentConfigParser.parseAndValidate(bytes, hostArch);
    } catch (InvalidConfigException e) {
      List<String> lines = new ArrayList<>();
      for (ConfigViolation v : e.violations()) {
        lines.add(v.toString());
      }
      journal
          .ending(
              Level.ERROR, "refused", "INVALID", Optional.empty(), Optional.empty(), Optional.of(e))
          .log(
              "refused {}: invalid configuration ({} violation(s)): {}; the node keeps running as it is",
              configFile,
              lines.size(),
              String.join("; ", lines));
      journal.record("refused", "INVALID", "invalid configuration: " + String.join("; ", lines));
      handled(fileDigest);
      return;
    }
    if (apply(desired)) {
      handled(fileDigest);
    }
  }

  /**
   * On a first start, the file's digest when it holds the applied configuration: it is already
   * acted on. Decided before {@code READY=1}, which the bootstrap that starts the daemon waits
   * for, so no operator command can have changed the applied configuration in between.
   */
  private Optional<String> fileMatchingApplied() {
    try {
      if (!ports.files().exists(configFile)) {
        return Optional.empty();
      }
      byte[] bytes = ports.files().read(configFile);
      AgentConfig desired = AgentConfigParser.parseAndValidate(bytes, hostArch);
      Optional<AgentConfig> applied = new AppliedConfigStore(ports.files(), paths).read();
      if (applied.isPresent() && ConfigDigest.of(applied.get()).equals(ConfigDigest.of(desired))) {
        return Optional.of(Hashing.sha256().hashBytes(bytes).toString());
      }
    } catch (IOException | RuntimeException e) {
      log.debug(
          "the configuration file is not the applied configuration: {}", DaemonJournal.message(e));
    }
    return Optional.empty();
  }

  /** Remembers that the file's content {@code digest} was acted on, across restarts. */
  private void handled(String digest) {
    handledDigest = Optional.of(digest);
    journal.update(s -> s.withWatching(new AgentState.Watch(
        configFile.toString(),
        s.watching().map(AgentState.Watch::since).orElse(ports.clock().now()),
        handledDigest)));
  }

  /** @return whether the file is handled (false: try again at the next tick) */
  private boolean apply(AgentConfig desired) {
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
      journal.operating(false);
      status.accept("watching " + configFile);
    }
  }

  /**
   * A file others can change is not read: the node keeps the configuration applied last. Said
   * once (logged and recorded as the last operation) until something else happens.
   */
  private void refuseUntrusted(WritableByOthersException e) {
    String key = "untrusted " + e.getMessage();
    if (journal.said(key)) {
      return;
    }
    journal
        .ending(
            Level.ERROR, "refused", "UNTRUSTED", Optional.empty(), Optional.empty(), Optional.of(e))
        .log("{}; not applied, the node keeps running as it is", e.getMessage());
    journal.record("refused", "UNTRUSTED", e.getMessage());
    journal.saying(key);
  }

  /** The file's configuration is the one target quarantined: the file has one content at a time. */
  private void quarantine(String digest, String target, String reason) {
    journal.update(s -> s.withQuarantined(
        List.of(new AgentState.Quarantine(digest, target, ports.clock().now(), reason))));
    journal.events(e -> e.quarantined(target, reason));
  }
}
