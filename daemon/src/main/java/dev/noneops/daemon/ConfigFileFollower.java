package dev.noneops.daemon;

import com.google.common.hash.Hashing;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.config.WritableByOthersException;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Follows the daemon's configuration file: reads it at each tick, unless a user or group other
 * than root can change it or a directory above it (refused, said once), and has a changed, valid
 * one applied ({@link ConfigApplier}); an invalid one is refused. Remembers the content it acted on last (across restarts, in the state),
 * so a file that did not change does not undo an operator's own command, and tells between ticks
 * whether the file was written and then held still.
 */
final class ConfigFileFollower {
  private final HostPorts ports;
  private final HostPaths paths;
  private final Path configFile;
  private final String hostArch;
  private final Logger log;
  private final DaemonJournal journal;
  private final ConfigApplier applier;
  private Optional<String> handledDigest = Optional.empty();
  private Optional<FileMeta> fileAtTick = Optional.empty();
  private Optional<FileMeta> fileAtSlice = Optional.empty();

  /**
   * @param applier what applies the file's valid content
   */
  ConfigFileFollower(
      HostPorts ports,
      HostPaths paths,
      Path configFile,
      String hostArch,
      Logger log,
      DaemonJournal journal,
      ConfigApplier applier) {
    this.ports = ports;
    this.paths = paths;
    this.configFile = configFile;
    this.hostArch = hostArch;
    this.log = log;
    this.journal = journal;
    this.applier = applier;
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
    if (applier.apply(desired)) {
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
}
