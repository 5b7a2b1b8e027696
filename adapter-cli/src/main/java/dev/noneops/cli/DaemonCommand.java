package dev.noneops.cli;

import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.event.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code noneops daemon}: the node's agent, run by {@code noneops-agent.service}. Refuses to run,
 * with one line and exit 3, on a java a user or group other than root can change. Recovers at
 * start, tells systemd it is ready ({@code READY=1}) and keeps its watchdog fed, then follows the
 * configuration file (see {@link NodeDaemon}) and, when the applied configuration names a Machine
 * and the wiring gives the host a cluster, the node's Machine. Logs to the journal's native socket with fields
 * ({@link JournalLogger}; stderr lines with syslog priority prefixes without it), and writes its
 * metrics for node_exporter's textfile collector ({@code --metrics-textfile-dir}, serving them on
 * {@code /metrics} too with {@code --metrics-listen}). While it runs it answers {@code status} and {@code allocation-launch-check}
 * for the CLI on {@link dev.noneops.core.layout.HostPaths#agentSocket()} ({@link
 * DaemonAnswerServer}). On SIGTERM it finishes the operation it is in, for at most
 * {@code --stop-grace}, and exits; what a stop beyond that interrupts, the next start recovers.
 */
@Command(
    name = "daemon",
    header = "Run the node's agent (noneops-agent.service)",
    description =
        "Refuse to run on a java that a user or group other than root can change (one line, exit 3). Recover what a crash interrupted, tell systemd it is ready, then follow the configuration file: apply each valid change, refuse an invalid one with every violation, and quarantine a target whose upgrade rolled back until the file changes. When the applied configuration names a Machine, register it and follow it: a raised repave counter drains the node, removes its Node object, upgrades or applies, and reports the outcome in the Machine's status (credentials: kubelet's own kubeconfig, the bootstrap kubeconfig before the node has joined).",
    footerHeading = "%nExamples:%n",
    footer = {"  systemctl status noneops-agent", "  journalctl -u noneops-agent -p warning"})
public final class DaemonCommand extends CliCommand {
  /** How long the daemon waits for a request line on its socket before it drops the client. */
  static final Duration ANSWER_READ_TIMEOUT = Duration.ofSeconds(1);

  @Mixin
  ConfigOption config;

  @Mixin
  WaitOption waits;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      converter = WaitOption.DurationConverter.class,
      defaultValue = "5s",
      description = "How often to read the configuration file and check the units (default: 5s).")
  Duration interval;

  @Option(
      names = "--stop-grace",
      paramLabel = "DURATION",
      converter = WaitOption.DurationConverter.class,
      defaultValue = "80s",
      description = "How long a stop waits for the operation in progress (default: 80s).")
  Duration stopGrace;

  @Option(
      names = "--metrics-textfile-dir",
      paramLabel = "DIR",
      defaultValue = HostPaths.AGENT_METRICS_TEXTFILE_DIR,
      description = "node_exporter's textfile collector directory, where the agent writes its"
          + " metrics as noneops.prom (default: ${DEFAULT-VALUE}); root writes only into a"
          + " directory root alone can change. 'noneops reset' removes the file from the default"
          + " directory; from another one, remove it yourself.")
  Path metricsTextfileDir;

  @Option(names = "--no-metrics-textfile", description = "Write no metrics file.")
  boolean noMetricsTextfile;

  @Option(
      names = "--metrics-listen",
      paramLabel = "ADDRESS[:PORT]",
      arity = "0..1",
      fallbackValue = "127.0.0.1",
      description = "Also serve the metrics on http://ADDRESS:PORT/metrics (127.0.0.1 when no"
          + " address is given, port " + HttpPort.DEFAULT + " when none is). Off by default: a"
          + " stock node opens no port.")
  String metricsListen;

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    JournalLogger log = new JournalLogger(
        "noneops-agent",
        err(),
        verbosity() > 0 ? Level.DEBUG : Level.INFO,
        environment().fleet().journal());
    Optional<InetSocketAddress> listen = Optional.empty();
    if (metricsListen != null) {
      try {
        listen = Optional.of(HttpPort.parse(metricsListen));
      } catch (IllegalArgumentException e) {
        throw new CliException(ExitCode.USAGE, e.getMessage());
      }
    }
    // with kubelet's credentials, an upgrade or repave the daemon runs checks the version skew
    // policy and waits for the Node to be Ready in the cluster
    try (NodeContext ctx = openNode()
            .kubeletTimeout(waits.kubeletTimeout())
            .log(log)
            .cluster(new NodeContext.ClusterOptions(Optional.empty(), false));
        FleetOutputs.DaemonMetrics metrics = environment()
            .fleet()
            .metrics(
                ctx.ports().files(),
                () -> ctx.ports().clock().now(),
                noMetricsTextfile
                    ? Optional.empty()
                    : Optional.of(ctx.session()
                        .paths()
                        .host(metricsTextfileDir.toAbsolutePath().toString())),
                listen,
                log)) {
      // the launcher runs this java as root at every start: run only on one root alone can change
      new RootOnlyPath(ctx.ports().files())
          .require("the agent's java", environment().agent().java());
      ServiceManager manager = new ServiceManager(ctx.ports().notifier(), log);
      Optional<ClusterClients> cluster = ctx.session().openCluster();
      NodeDaemon daemon = new NodeDaemon(
          ctx.ports(),
          ctx.session().layout(),
          ctx.session().paths(),
          (desired, applied) -> ctx.node(desired, applied),
          new NodeDaemon.Options(
              config.file(), interval, ctx.ports().facts().read().arch()),
          manager,
          log);
      daemon.reportTo(metrics.sink());
      ctx.events(daemon.nodeEvents());
      cluster.ifPresent(c -> daemon.followMachine(c, RepaveOptions.DEFAULTS));
      AtomicBoolean stop = new AtomicBoolean();
      CountDownLatch finished = new CountDownLatch(1);
      Thread hook = new Thread(
          () -> {
            stop.set(true);
            manager.stopping();
            try {
              if (!finished.await(stopGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("stopping with an operation in progress; the next start recovers it");
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          },
          "noneops-daemon-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      try (ServiceManager.Watchdog watchdog = manager.watchdog(daemon);
          DaemonAnswerServer answers = DaemonAnswerServer.start(
              ctx.session().paths().agentSocket(),
              BuildVersionProvider.buildIdentity(),
              (what, asJson) -> InspectionReport.of(
                  what,
                  asJson,
                  ctx.node(Optional.empty(), Optional.empty()),
                  ctx.ports(),
                  ctx.session().paths(),
                  daemon.systemdUnreachableSince()),
              log,
              ANSWER_READ_TIMEOUT)) {
        daemon.run(stop::get, stopGrace);
      } finally {
        cluster.ifPresent(ClusterClients::close);
        finished.countDown();
      }
      return ExitCode.OK;
    }
  }
}
