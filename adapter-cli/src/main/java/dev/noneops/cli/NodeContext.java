package dev.noneops.cli;

import dev.noneops.cli.output.LiveProgress;
import dev.noneops.cli.wiring.DownloadThreads;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.ClusterCheck;
import dev.noneops.core.node.LockWait;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TimeoutOptions;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.daemon.ClusterEvents;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.events.NodeEvents;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One command's view of the node: the host session, the configuration read from it, and the
 * core objects bound to both ({@link Node}, {@link Teardown}, the applied-config store), with
 * the node's events rendered as progress on stderr. A node's parallel tasks (downloads) run on
 * the context's {@link DownloadThreads}, which end when the context is closed.
 */
final class NodeContext implements AutoCloseable {
  private final HostSession session;
  private final LiveProgress progress;
  private final DownloadThreads downloadThreads = new DownloadThreads();
  private Optional<Duration> kubeletTimeout = Optional.empty();
  private Optional<Logger> log = Optional.empty();
  private LockWait lockWait = LockWait.NONE;
  private NodeEvents alsoTo = NodeEvents.NONE;
  private Optional<ClusterOptions> cluster = Optional.empty();
  private Optional<ClusterClients> clusterClients = Optional.empty();

  /** How a command uses the node's cluster: the readiness bound and the skew override. */
  record ClusterOptions(Optional<Duration> readyWithin, boolean ignoreVersionSkew) {}

  private NodeContext(HostSession session, LiveProgress progress) {
    this.session = session;
    this.progress = progress;
  }

  static NodeContext open(CliEnvironment environment, LiveProgress progress) throws IOException {
    return new NodeContext(environment.host().connect(), progress);
  }

  /** A context over a read-only session ({@link HostConnector#connectToRead()}). */
  static NodeContext openToRead(CliEnvironment environment, LiveProgress progress)
      throws IOException {
    return new NodeContext(environment.host().connectToRead(), progress);
  }

  NodeContext kubeletTimeout(Optional<Duration> timeout) {
    this.kubeletTimeout = timeout;
    return this;
  }

  /**
   * Has the nodes check the version skew policy and include the cluster's view in the readiness
   * gate, through kubelet's credentials when the host has them ({@link HostSession#openCluster()}).
   */
  NodeContext cluster(ClusterOptions options) {
    this.cluster = Optional.of(options);
    return this;
  }

  /** Has the nodes' operations wait for the node lock as {@code wait} says. */
  NodeContext lockWait(LockWait wait) {
    this.lockWait = wait;
    return this;
  }

  /** Logs the nodes' phases to {@code logger} instead of the default logger. */
  NodeContext log(Logger logger) {
    this.log = Optional.of(logger);
    return this;
  }

  /** Has the nodes' events reach {@code listener} too (after the progress on stderr). */
  NodeContext events(NodeEvents listener) {
    this.alsoTo = listener;
    return this;
  }

  HostSession session() {
    return session;
  }

  HostPorts ports() {
    return session.ports();
  }

  /**
   * The configuration in {@code file}, parsed and validated for this host.
   *
   * @throws CliException when the file is missing or unreadable (its own error, exit 3)
   * @throws InvalidConfigException when it is not a valid configuration (every violation listed)
   */
  AgentConfig readConfig(Path file) throws IOException {
    byte[] json;
    try {
      json = ports().files().read(file);
    } catch (HostIOException e) {
      String why = e.errno() == Errno.ENOENT
          ? "no such file (pass --config FILE)"
          : e.errno() == Errno.EACCES ? "permission denied" : e.getMessage();
      throw new CliException(
          ExitCode.INVALID_CONFIG,
          "cannot read the configuration file " + file + ": " + why + "; nothing was changed");
    }
    return AgentConfigParser.parseAndValidate(json, ports().facts().read().arch());
  }

  AppliedConfigStore applied() {
    return new AppliedConfigStore(ports().files(), session.paths());
  }

  /** A node bound to {@code config} (empty for stop/status), rolling back to {@code previous}. */
  Node node(Optional<AgentConfig> config, Optional<AgentConfig> previous) {
    return node(config, previous, Optional.empty());
  }

  /** {@link #node(Optional, Optional)} that installs {@code agent} at bootstrap. */
  Node node(
      Optional<AgentConfig> config, Optional<AgentConfig> previous, Optional<AgentSetup> agent) {
    TimeoutOptions t = TimeoutOptions.DEFAULTS;
    if (kubeletTimeout.isPresent()) {
      t = new TimeoutOptions(
          t.unitJob(),
          kubeletTimeout.get(),
          t.localDnsReady(),
          t.pollInterval(),
          t.probe(),
          t.command(),
          t.imageImport());
    }
    Overrides overrides = Overrides.builder()
        .layout(session.layout())
        .hostRoot(session.paths().root())
        .systemdDir(session.paths().systemdDir())
        .timeouts(t)
        .parallelExecutor(downloadThreads)
        .lockWait(lockWait)
        .build();
    NodeEvents also = alsoTo;
    NodeEvents events = also == NodeEvents.NONE
        ? progress
        : event -> {
          progress.onEvent(event);
          also.onEvent(event);
        };
    Params.Builder params = Params.builder(ports()).events(events).overrides(overrides);
    log.ifPresent(params::log);
    config.ifPresent(params::config);
    previous.ifPresent(params::previous);
    agent.ifPresent(params::agent);
    clusterCheck(config).ifPresent(params::cluster);
    return new Node(params.build());
  }

  /**
   * The cluster check of {@link #cluster(ClusterOptions)}, when the host reaches a cluster: through
   * kubelet's kubeconfig or its bootstrap kubeconfig once either exists, else (before a bootstrap
   * wrote them) through what {@code config} says of the cluster: its API server, CA and bootstrap
   * token.
   */
  Optional<ClusterCheck> clusterCheck(Optional<AgentConfig> config) {
    if (cluster.isEmpty()) {
      return Optional.empty();
    }
    if (clusterClients.isEmpty()) {
      clusterClients = session.openCluster();
    }
    if (clusterClients.isEmpty()) {
      return Optional.empty();
    }
    ClusterOptions o = cluster.get();
    // made at the check's first call: an operation that never asks the cluster loads no client
    ClusterNode nodes = new LazyClusterNode(() -> kubeletCredentials() || config.isEmpty()
        ? clusterClients.orElseThrow().nodes()
        : configCluster(config.get()));
    return Optional.of(new ClusterCheck(
        nodes, o.readyWithin().orElse(ClusterCheck.DEFAULT_READY_WITHIN), o.ignoreVersionSkew()));
  }

  private boolean kubeletCredentials() {
    try {
      return ports().files().exists(session.paths().kubeconfig())
          || ports().files().exists(session.paths().bootstrapKubeconfig());
    } catch (IOException e) {
      return false;
    }
  }

  /** A client of the API server {@code config} names, with its CA and bootstrap token. */
  private ClusterNode configCluster(AgentConfig config) {
    String server = config.kubelet().apiServer();
    try {
      String ca = new String(
          Base64.getMimeDecoder().decode(config.cluster().caCertBase64()), StandardCharsets.UTF_8);
      return clusterClients
          .orElseThrow()
          .configured(
              URI.create(server.contains("://") ? server : "https://" + server),
              ca,
              config.kubelet().auth().bootstrapToken())
          .orElseGet(() -> clusterClients.orElseThrow().nodes());
    } catch (RuntimeException e) {
      return clusterClients.orElseThrow().nodes();
    }
  }

  /**
   * Reports {@code failure}, an upgrade that rolled back, as an Event to the node's cluster
   * ({@code UpgradeRolledBack}), when this context reached one for the upgrade; waits at most
   * {@link ClusterEvents#FLUSH} for it to be sent, and never fails.
   */
  void reportRollback(UpgradeFailedException failure) {
    if (clusterClients.isEmpty()) {
      return;
    }
    try (ClusterEvents events = ClusterEvents.to(
        clusterClients.get().nodes(),
        ports(),
        session.paths(),
        log.orElse(LoggerFactory.getLogger(NodeContext.class)))) {
      events.upgradeRolledBack(failure.operatorMessage());
    } catch (RuntimeException e) {
      // an Event is never worth failing the command for; the error line says what happened
    }
  }

  Teardown teardown() {
    return new Teardown(ports(), session.layout(), session.paths());
  }

  @Override
  public void close() {
    try {
      downloadThreads.close();
      clusterClients.ifPresent(ClusterClients::close);
    } finally {
      try {
        progress.close();
      } finally {
        session.close();
      }
    }
  }
}
