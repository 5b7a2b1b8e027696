package dev.noneops.demo;

import dev.noneops.cli.ExitCode;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.commands.CommandOutcome;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.ArtifactSet;
import dev.noneops.testkit.fixtures.artifacts.BusyboxImageArchive;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.artifacts.DebianRuntimes;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.pods.RealPods;
import dev.noneops.testkit.fixtures.sandbox.SandboxDisk;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code noneops demo}: the node's whole lifecycle, told step by step. As root (and when the
 * machine can boot a sandboxed systemd) on a real systemd in a sandbox on a disk that outlives it
 * and in a network of its own, with the artifacts served from a local HTTP server relayed into it
 * — containerd, runc and the CNI plugins are Debian's real binaries, kubelet and CoreDNS stand-ins
 * — the agent run as separate JVMs and real busybox pods run by the node's containerd. In the
 * middle of an upgrade the sandbox's power is cut (SIGKILL to its PID 1) and a new sandbox boots
 * on the same disk, where the recovery gate heals the node before its stack starts. Otherwise the
 * same story on the simulated host, where the cut is a simulated one and the boot the simulated
 * systemd's, without the pods. Either way the host is left as it was.
 */
final class LifecycleDemo implements DemoRunner {
  static final String CONFIG = "/etc/unbounded/agent/config.json";

  /**
   * Where the chapters after the bootstrap write the configurations they apply: not the file the
   * agent's daemon follows ({@link #CONFIG}, the bootstrap's), so the daemon acts on none of
   * them and the operator's commands are the demo's.
   */
  static final String NEXT = "/etc/unbounded/agent/next.json";

  static final String ARCH = "amd64";

  /** containerd before and after the upgrade: two real Debian builds. */
  static final DebianRuntimes.ContainerdPair CONTAINERD = DebianRuntimes.containerd();

  static final ArtifactSet.Runtime CONTAINERD_OLD = CONTAINERD.older();
  static final ArtifactSet.Runtime CONTAINERD_NEW = CONTAINERD.newer();
  static final ArtifactSet.Runtime RUNC = DebianRuntimes.runc();

  /** The CNI plugins: Debian's, the real bridge, host-local, loopback and portmap. */
  static final String CNI = "1.5.1";

  /** containerd's data directory, a separate volume of the sandbox's disk (no overlay under it). */
  static final String CONTAINERD_VOLUME = "/var/lib/containerd";

  static final String K8S = "1.31.4";
  static final String K8S_BROKEN = "1.31.5";
  static final String K8S_NEXT = "1.31.6";

  @Override
  public boolean bootsASandbox(Options options) {
    return !options.simulated()
        && options.root()
        && SandboxRequirements.unmetReason().isEmpty();
  }

  @Override
  public ExitCode run(PrintWriter out, PrintWriter err, Options options) throws Exception {
    Optional<String> cannotSandbox =
        options.root() ? SandboxRequirements.unmetReason() : Optional.of("not running as root");
    if (options.simulated() || cannotSandbox.isPresent()) {
      String why = options.simulated() ? "--simulated was given" : cannotSandbox.get();
      out.println("noneops demo: on the SIMULATED host (" + why
          + "): every port is the in-memory testkit host, with its");
      out.println(
          "durability model; a power cut is the simulated one, the reboot the simulated systemd's. It runs no containers,");
      out.println(
          "so the pods and the count of mounts, links, namespaces and cgroups are left out. As root, the whole story");
      out.println("runs on a sandboxed real systemd.");
      return simulated(out, err);
    }
    out.println(
        "noneops demo: on a REAL systemd booted in a sandbox (private PID/mount/network namespaces over an overlay of /");
    out.println(
        "on a disk that survives its power cut), artifacts served from 127.0.0.1 and relayed into it, containerd, runc,");
    out.println(
        "the CNI plugins and busybox from Debian's packages, real pods, the agent as separate JVMs.");
    return new SandboxStory(out, err).tell();
  }

  private ExitCode simulated(PrintWriter out, PrintWriter err) {
    DemoStory story = new DemoStory(out, err);
    SimCli cli = new SimCli(SimulatedHost.create()).withAgent();
    containerdWithNoTasks(cli);
    FileTreeSnapshot before = cli.host().snapshot();
    Path config = Path.of(CONFIG);
    ConfigJson base =
        ConfigJson.of(K8S).withContainerd(CONTAINERD_OLD.version()).withRunc(RUNC.version());
    String[] versions = new String[4];
    boolean ok = story.step("publish artifacts (4 sets) in the simulated repository", () -> {
      versions[1] =
          cli.configure(config, base.withContainerd(CONTAINERD_NEW.version()).json());
      versions[2] = cli.configure(
          config,
          base.withContainerd(CONTAINERD_NEW.version())
              .withKubernetes(K8S_BROKEN)
              .json());
      versions[3] = cli.configure(
          config,
          base.withContainerd(CONTAINERD_NEW.version()).withKubernetes(K8S_NEXT).json());
      versions[0] = cli.configure(config, base.json());
      cli.kubeletNeverReady(versions[2]);
      return "versions " + String.join(", ", versions);
    });
    Agent agent = new SimulatedAgent(cli);
    if (ok) {
      new Chapters(
              story, agent, out, (path, json) -> cli.configure(Path.of(path), json), base, versions)
          .tell();
    }
    story.cleanUp("the host is left as it was", () -> {
      var files = cli.host().ports().files();
      files.removeDurably(config);
      if (files.exists(Path.of(NEXT))) {
        files.removeDurably(Path.of(NEXT));
      }
      for (Path dir = config.getParent();
          dir != null && !dir.toString().equals("/etc");
          dir = dir.getParent()) {
        if (files.exists(dir) && files.list(dir).isEmpty()) {
          files.removeDurably(dir);
        }
      }
      FileTreeSnapshot after = cli.host().snapshot();
      List<String> diff = after.diff(before);
      // The simulated power cut rebooted the host, which empties the /run tmpfs as a real reboot
      // does.
      List<String> rebooted =
          diff.stream().filter(d -> d.substring(2).startsWith("/run/")).toList();
      List<String> emptyDirs = diff.stream()
          .filter(d -> d.startsWith("+ ") && d.contains(" directory "))
          .toList();
      List<String> rest = diff.stream()
          .filter(d -> !rebooted.contains(d) && !emptyDirs.contains(d))
          .toList();
      if (!rest.isEmpty()) {
        throw new IllegalStateException(
            "the simulated file tree differs from before the demo: " + rest);
      }
      return diff.isEmpty()
          ? "simulated file tree identical to before the demo"
          : "simulated file tree identical to before the demo except "
              + (emptyDirs.isEmpty()
                  ? ""
                  : "empty directories left: "
                      + String.join(
                          ", ",
                          emptyDirs.stream()
                              .map(d -> d.substring(2, d.indexOf(" directory")))
                              .toList()))
              + (rebooted.isEmpty()
                  ? ""
                  : (emptyDirs.isEmpty() ? "" : "; ") + "/run emptied by the simulated reboot");
    });
    story.summary("noneops demo on the simulated host");
    return story.allOk() ? ExitCode.OK : ExitCode.FAILURE;
  }

  /**
   * The simulated node's {@code ctr} answers as the ctr of a containerd that runs no containers
   * would: no task, no container (status then counts 0 pods). Its other commands are not
   * simulated: they fail to start, as any program the simulated host does not know.
   */
  static void containerdWithNoTasks(SimCli cli) {
    String ctr = cli.layout().currentBin().resolve("ctr").toString();
    cli.host().commands().register(List.of(ctr), command -> {
      List<String> argv = command.argv();
      if (Collections.indexOfSubList(argv, List.of("tasks", "ls")) > 0) {
        return CommandOutcome.ok("TASK    PID    STATUS\n");
      }
      if (Collections.indexOfSubList(argv, List.of("containers", "ls")) > 0) {
        return CommandOutcome.ok("");
      }
      throw new HostIOException(Errno.ENOENT, "exec", argv.get(0));
    });
  }

  /** Writes a configuration for the agent at {@code path} (as the host sees it). */
  @FunctionalInterface
  interface ConfigWriter {
    void write(String path, String json) throws Exception;
  }

  /** A check only the real-systemd story can make, run after a chapter; returns what it proved. */
  @FunctionalInterface
  interface RealCheck {
    String check() throws Exception;
  }

  /** The chapters both stories share: bootstrap to reset, through the CLI. */
  static final class Chapters {
    private final DemoStory story;
    private final Agent agent;
    private final PrintWriter out;
    private final ConfigWriter configs;
    private final ConfigJson base;
    private final String[] versions;
    private String[] bootstrapArgs = {"bootstrap", "--kubelet-timeout", "60s"};
    private Optional<RealCheck> containerdCheck = Optional.empty();
    private Optional<DemoPods> pods = Optional.empty();

    Chapters(
        DemoStory story,
        Agent agent,
        PrintWriter out,
        ConfigWriter configs,
        ConfigJson base,
        String[] versions) {
      this.story = story;
      this.agent = agent;
      this.out = out;
      this.configs = configs;
      this.base = base;
      this.versions = versions;
    }

    /** Bootstraps without touching the kernel's modules and sysctls (a sandbox shares the host's kernel). */
    Chapters withoutKernelModules() {
      bootstrapArgs = new String[] {"bootstrap", "--kubelet-timeout", "60s", "--no-kernel-modules"};
      return this;
    }

    /** Proves containerd runs, after the bootstrap and after the upgrade. */
    Chapters checkingContainerd(RealCheck check) {
      containerdCheck = Optional.of(check);
      return this;
    }

    /** Runs real pods on the node: started after the bootstrap and again after each restart of the stack. */
    Chapters withPods(DemoPods demoPods) {
      pods = Optional.of(demoPods);
      return this;
    }

    void tell() {
      ConfigJson next = base.withContainerd(CONTAINERD_NEW.version());
      boolean ok = story.step(
          "bootstrap (containerd " + CONTAINERD_OLD.version() + ", kubelet " + K8S
              + ", the agent with its recovery gate)",
          () -> {
            configs.write(CONFIG, base.json());
            return expect(agent.run(bootstrapArgs), 0, "bootstrap") + "active "
                + agent.activeVersion();
          });
      if (ok && containerdCheck.isPresent()) {
        ok = story.step(
            "containerd " + CONTAINERD_OLD.version() + " answers on its socket",
            containerdCheck.get()::check);
      }
      ok = ok
          && story.step("status", () -> expect(agent.run("status"), 0, "status") + "stack running");
      if (ok && pods.isPresent()) {
        ok = story.step(
            "start " + DemoPods.COUNT + " pods (ctr run --cni, as kubelet would)",
            pods.get()::start);
      }
      ok = ok
          && story.step("upgrade to containerd " + CONTAINERD_NEW.version(), () -> {
            configs.write(NEXT, next.json());
            expect(
                agent.run("upgrade", "--config", NEXT, "--kubelet-timeout", "60s"), 0, "upgrade");
            return "active " + agent.activeVersion() + ", previous version pruned";
          });
      if (ok && containerdCheck.isPresent()) {
        ok = story.step(
            "containerd " + CONTAINERD_NEW.version() + " answers on its socket",
            containerdCheck.get()::check);
      }
      if (ok && pods.isPresent()) {
        ok = story.step(
            "the pods after the upgrade: ended, started again",
            () -> pods.get().endedBy("the upgrade"));
      }
      ok = ok
          && story.step(
              "upgrade to kubelet " + K8S_BROKEN + " that never gets ready: automatic rollback",
              () -> {
                configs.write(NEXT, next.withKubernetes(K8S_BROKEN).json());
                expect(
                    agent.run("upgrade", "--config", NEXT, "--kubelet-timeout", "5s"),
                    ExitCode.ROLLED_BACK.code(),
                    "upgrade");
                out.println(
                    "      (expected: this target's kubelet never gets ready, so the upgrade"
                        + " fails and rolls back)");
                String active = agent.activeVersion();
                if (!active.equals(versions[1])) {
                  throw new IllegalStateException(
                      "after the rollback " + active + " is active, not " + versions[1]);
                }
                return "exit 6 (rolled back); active " + active + " again";
              });
      if (ok && pods.isPresent()) {
        ok = story.step(
            "the pods after the rollback: ended, started again",
            () -> pods.get().endedBy("the rolled-back upgrade"));
      }
      ok = ok
          && story.step(
              "power cut in the middle of an upgrade to kubelet " + K8S_NEXT
                  + ", right after the flip",
              () -> {
                configs.write(NEXT, next.withKubernetes(K8S_NEXT).json());
                Agent.Run cut = agent.runAndCutPowerAfterTheFlip(
                    versions[3], "upgrade", "--json", "--config", NEXT, "--kubelet-timeout", "60s");
                printIndented(cut.err());
                return "power cut right after 'current' was flipped to " + versions[3];
              });
      ok = ok
          && story.step(
              "boot again on the same disk: the recovery gate runs before the stack", () -> {
                Agent.Reboot reboot = agent.reboot();
                printIndented(reboot.order());
                printIndented(reboot.gateLine());
                if (!reboot.gateFirst()) {
                  throw new IllegalStateException(
                      "the recovery gate did not finish before the stack started: "
                          + reboot.order());
                }
                if (!reboot.gateLine().contains("rolled back")) {
                  throw new IllegalStateException(
                      "the gate did not roll back: " + reboot.gateLine());
                }
                if (!reboot.daemon().contains(" active")) {
                  throw new IllegalStateException(
                      "the agent's daemon is not up: " + reboot.daemon());
                }
                return "no operator command; " + reboot.gateLine() + "; " + reboot.daemon();
              });
      ok = ok
          && story.step("the node after the reboot: consistent, status tells what happened", () -> {
            Agent.Run status = agent.run("status");
            expect(status, 0, "status");
            String active = agent.activeVersion();
            if (!active.equals(versions[1])) {
              throw new IllegalStateException(
                  "after the reboot " + active + " is active, not " + versions[1]);
            }
            if (status
                    .out()
                    .lines()
                    .noneMatch(l -> l.startsWith("upgrade:") && l.contains("none in flight"))
                || status
                    .out()
                    .lines()
                    .noneMatch(l -> l.startsWith("stack:") && l.contains("running"))) {
              throw new IllegalStateException("status after the reboot: " + status.out());
            }
            Agent.Run verify = agent.run("verify");
            expect(verify, 0, "verify");
            String told = status
                .out()
                .lines()
                .filter(l -> l.toLowerCase(Locale.ROOT).contains("recover")
                    || l.toLowerCase(Locale.ROOT).contains("gate"))
                .map(String::strip)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                    "status does not tell what the recovery did: " + status.out()));
            return "active " + active + ", stack running, nothing in flight, verify ok; status: "
                + told;
          });
      if (ok && pods.isPresent()) {
        ok = story.step(
            "the pods after the reboot: started again", pods.get()::startedAgainAfterTheReboot);
      }
      ok = ok
          && story.step("recover once more: nothing to do", () -> {
            Agent.Run recover = agent.run("recover", "--kubelet-timeout", "60s");
            return expect(recover, 0, "recover") + firstLine(recover.out());
          });
      ok = ok
          && story.step(
              "allocation-launch-check",
              () -> expect(agent.run("allocation-launch-check"), 0, "check") + "healthy");
      ok = ok
          && story.step(
              "prune",
              () -> expect(agent.run("prune"), 0, "prune") + "only " + agent.activeVersion()
                  + " left");
      if (ok && pods.isPresent()) {
        ok = story.step(
            "count mounts, links, network namespaces and cgroups with the pods",
            pods.get()::countWithPods);
      }
      story.step(
          pods.isPresent() ? "reset (teardown) with the pods running" : "reset (teardown)",
          () -> expect(agent.run("reset", "--yes"), 0, "reset") + "node removed");
      if (pods.isPresent()) {
        story.step("count them after the teardown: nothing left", pods.get()::countAfterTeardown);
      }
      story.step("present after reset", () -> {
        Agent.Run present = agent.run("present");
        if (present.exitCode() != 8) {
          throw new IllegalStateException("present exited " + present.exitCode()
              + ": the node left traces: " + present.out().strip());
        }
        return "absent: no trace of the node";
      });
    }

    private String expect(Agent.Run run, int code, String what) {
      printIndented(run.out());
      printIndented(run.err()
          .lines()
          .filter(l -> l.startsWith("noneops") || l.contains("FAIL"))
          .reduce("", (a, b) -> a + b + "\n"));
      if (run.exitCode() != code) {
        throw new IllegalStateException(
            what + " exited " + run.exitCode() + " (expected " + code + "): "
                + run.err()
                    .lines()
                    .filter(l -> l.startsWith("noneops"))
                    .findFirst()
                    .orElse(run.err().strip()));
      }
      return "exit " + run.exitCode() + "; ";
    }

    private void printIndented(String text) {
      text.lines().filter(l -> !l.isBlank()).forEach(l -> out.println("      | " + l));
      out.flush();
    }

    private static String firstLine(String s) {
      return s.lines().findFirst().orElse("");
    }
  }

  /**
   * containerd runs under the sandbox's systemd from the node's {@code current/bin} and answers
   * {@code ctr version} on its socket, server side included.
   */
  static String containerdAnswers(SystemdSandbox sandbox) {
    var pid = sandbox
        .systemctl("show", "-p", "MainPID", "--value", "containerd.service")
        .stdout()
        .strip();
    var exe = sandbox.exec("readlink", "-f", "/proc/" + pid + "/exe").stdout().strip();
    if (!exe.startsWith("/opt/unbounded/node/")) {
      throw new IllegalStateException("containerd.service's main process (pid " + pid + ") runs "
          + exe + ", not the node's binary");
    }
    var version = sandbox.exec(
        "/opt/unbounded/node/current/bin/ctr",
        "--address",
        "/run/containerd/containerd.sock",
        "version");
    if (version.exitCode() != 0 || !version.stdout().contains("Server:")) {
      throw new IllegalStateException(
          "ctr version did not reach the server: " + version.stderr().strip());
    }
    String server = version
        .stdout()
        .substring(version.stdout().indexOf("Server:"))
        .lines()
        .filter(l -> l.strip().startsWith("Version:"))
        .findFirst()
        .orElse("")
        .strip();
    return "main pid " + pid + " runs " + exe + "; ctr version -> server " + server;
  }

  /**
   * The node puts LocalDNS's address on a dummy interface it creates (and an upgrade deletes and
   * creates again, as a repave cleans host networking). Some kernels (this project's CI machines)
   * have no dummy link type; there the demo gives the sandbox, on its disk only, {@link
   * DummyLinkStandIn#installWhereNeeded the ip wrapper} that makes an {@code ifb} link where a
   * dummy is asked for (it carries the address just as well) and reports it as a dummy.
   */
  static String provideLocalDnsLinkIfTheKernelHasNoDummy(SystemdSandbox sandbox) throws Exception {
    return DummyLinkStandIn.installWhereNeeded(sandbox)
        ? "this kernel has no dummy link type: inside the sandbox, 'ip' makes localdns0 an ifb link instead"
        : "the kernel has dummy links: the node creates localdns0 itself";
  }

  /** The story on a sandboxed real systemd. */
  private static final class SandboxStory {
    private final PrintWriter out;
    private final PrintWriter err;

    SandboxStory(PrintWriter out, PrintWriter err) {
      this.out = out;
      this.err = err;
    }

    ExitCode tell() throws Exception {
      DemoStory story = new DemoStory(out, err);
      HostState before = HostState.read();
      Path jar = cliJar();
      Path cache = cache();
      ArtifactRepository repo = new ArtifactRepository(cache.resolve("artifacts"));
      Path image = cache.resolve("images").resolve("busybox.tar");
      boolean ok = story.step(
          "build artifacts (containerd x2, runc, CNI plugins, busybox from Debian; stand-ins)",
          () -> publishArtifacts(cache, repo, image));
      if (!ok) {
        story.summary("noneops demo on a sandboxed real systemd");
        return ExitCode.FAILURE;
      }
      try (ArtifactServer server = ArtifactServer.serve(repo.root())) {
        SandboxAgent[] machine = new SandboxAgent[1];
        try {
          ok = story.step("boot a sandboxed systemd on a disk, in a network of its own", () -> {
            SandboxDisk disk =
                SandboxDisk.create("noneops-demo").withSeparateVolume(CONTAINERD_VOLUME);
            machine[0] =
                SandboxAgent.bootFirst(disk, "noneops-demo", server.uri().getPort(), jar);
            SystemdSandbox sandbox = machine[0].sandbox();
            return "systemd pid " + sandbox.pid() + " running after "
                + DemoStory.seconds(sandbox.bootTime()) + "; disk " + disk.directory()
                + " (" + CONTAINERD_VOLUME + " a separate volume)";
          });
          if (ok) {
            SandboxAgent agent = machine[0];
            ConfigJson config = ConfigJson.of(K8S)
                .withContainerd(CONTAINERD_OLD.version())
                .withRunc(RUNC.version())
                .withDownloadsFrom(server.uri().toString());
            String[] versions = new String[4];
            ConfigWriter writer = (path, json) -> {
              Path file = agent.sandbox().path(path);
              Files.createDirectories(
                  Objects.requireNonNull(file.getParent(), "the configuration directory"));
              Files.writeString(file, json, StandardCharsets.UTF_8);
            };
            DemoPods pods = new DemoPods(agent::sandbox);
            ok = story.step(
                "the sandbox's own network reaches the artifact server through a relay",
                () -> artifactServerAnswersInside(agent, server));
            ok = ok
                && story.step("name the versions (version-for)", () -> {
                  ConfigJson next = config.withContainerd(CONTAINERD_NEW.version());
                  List<ConfigJson> all = List.of(
                      config, next, next.withKubernetes(K8S_BROKEN), next.withKubernetes(K8S_NEXT));
                  for (int i = 0; i < all.size(); i++) {
                    writer.write(CONFIG, all.get(i).json());
                    Agent.Run r = agent.run("version-for");
                    if (r.exitCode() != 0) {
                      throw new IllegalStateException(
                          "version-for exited " + r.exitCode() + ": " + r.err().strip());
                    }
                    versions[i] = r.out().strip();
                  }
                  return String.join(", ", versions);
                });
            ok = ok
                && story.step(
                    "LocalDNS's interface",
                    () -> provideLocalDnsLinkIfTheKernelHasNoDummy(agent.sandbox()));
            ok = ok
                && story.step(
                    "count mounts, links, network namespaces and cgroups before the node", () -> {
                      DemoPods.stageImage(agent.sandbox(), image);
                      return pods.countBefore()
                          + "; image archive staged for the node's containerd";
                    });
            if (ok) {
              new Chapters(story, agent, out, writer, config, versions)
                  .withoutKernelModules()
                  .checkingContainerd(() -> containerdAnswers(agent.sandbox()))
                  .withPods(pods)
                  .tell();
              story.step(
                  "artifacts came from the local server",
                  () -> server.requests().size() + " requests to " + server.uri());
            }
          }
        } finally {
          if (machine[0] != null) {
            story.cleanUp("stop the sandbox and remove its disk", () -> {
              long pid = machine[0].sandbox().pid();
              machine[0].close();
              return "systemd pid " + pid + " and its namespaces ended; its disk is gone";
            });
          }
        }
      }
      story.cleanUp("the host is left as it was", () -> HostState.read().restoreTo(before, err));
      story.summary("noneops demo on a sandboxed real systemd");
      return story.allOk() ? ExitCode.OK : ExitCode.FAILURE;
    }
  }

  /**
   * The CLI jar the demo runs in its sandboxes: {@code -Dnoneops.jar}, which {@code bin/noneops}
   * sets to the jar it builds.
   */
  static Path cliJar() {
    Path jar = Path.of(System.getProperty("noneops.jar", "adapter-cli/target/noneops.jar"))
        .toAbsolutePath();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the CLI jar " + jar + " is missing: run the demo through bin/noneops, which builds it");
    }
    return jar;
  }

  /** Where the demo keeps what it downloads and builds between runs. */
  static Path cache() {
    return Path.of(System.getProperty("user.home"), ".cache", "noneops", "demo");
  }

  /**
   * Publishes into {@code repo} every version the story installs (containerd's two Debian builds,
   * a kubelet that never gets ready, the next Kubernetes) and writes the busybox image to {@code
   * image}; what is already there is kept.
   *
   * @return what was published, for the story
   */
  static String publishArtifacts(Path cache, ArtifactRepository repo, Path image) throws Exception {
    ArtifactSet base =
        new ArtifactSet(K8S, CONTAINERD_OLD, RUNC, CNI, "1.31.0", "1.11.3", ARCH, false);
    DebianPackages debian = new DebianPackages(cache.resolve("debian"));
    NodeArtifactBuilder builder = new NodeArtifactBuilder(repo, debian, StandInScripts.ofThisJvm());
    builder.publish(base);
    builder.publish(base.withContainerd(CONTAINERD_NEW));
    builder.publish(base.withContainerd(CONTAINERD_NEW).withBrokenKubelet(K8S_BROKEN));
    builder.publish(
        new ArtifactSet(K8S_NEXT, CONTAINERD_NEW, RUNC, CNI, "1.31.0", "1.11.3", ARCH, false));
    builder.publishDebianCniPlugins(CNI, ARCH);
    BusyboxImageArchive.write(
        BusyboxImageArchive.busyboxFrom(debian),
        image,
        List.of(RealPods.IMAGE, NodeConstants.SANDBOX_IMAGE),
        ARCH);
    return "containerd " + CONTAINERD_OLD.version() + " and " + CONTAINERD_NEW.version()
        + ", runc " + RUNC.version() + ", CNI plugins " + CNI + " in " + repo.root()
        + "; busybox image " + RealPods.IMAGE;
  }

  /** The artifact server answers inside the sandbox, whose network is its own, at its usual URL. */
  static String artifactServerAnswersInside(SandboxAgent agent, ArtifactServer server) {
    agent.relayAnswers();
    String links = String.join(
        ", ",
        agent
            .sandbox()
            .exec("ip", "-o", "link", "show")
            .orThrow()
            .stdout()
            .lines()
            .map(l -> l.split(": ")[1])
            .toList());
    return server.uri() + " answers inside (HTTP 404 for a missing artifact); the sandbox's links: "
        + links;
  }
}
