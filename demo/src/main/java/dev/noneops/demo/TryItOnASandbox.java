package dev.noneops.demo;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.cli.ExitCode;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.sandbox.SandboxCli;
import dev.noneops.testkit.fixtures.sandbox.SandboxDisk;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * {@code bin/noneops demo --shell}: the demo's sandboxed real systemd, on a disk, in a network of
 * its own, with the demo's artifacts served (at a chosen rate) and relayed into it, the
 * configuration a bootstrap reads written at its default path and {@code noneops} on its {@code
 * PATH}, left for the operator to try the CLI on, as on a fresh node, until told to stop. Nothing
 * runs on the host's own systemd: the node it installs is the sandbox's.
 */
final class TryItOnASandbox implements SandboxShell {
  /**
   * The CLI of this checkout inside the sandbox: a script running the demo's jar. It comes before
   * {@code /usr/local/bin/noneops} on the {@code PATH}, the link a bootstrap installs (to the build
   * it installed) and a reset removes.
   */
  static final String NONEOPS = "/usr/local/sbin/noneops";

  static final String NAME = "noneops-shell";

  @Override
  public ExitCode open(PrintWriter out, InputStream stop, Options options) throws Exception {
    if (!options.root()) {
      out.println("noneops demo --shell: a sandboxed systemd needs root (try sudo); nothing was"
          + " changed");
      return ExitCode.NOT_ROOT;
    }
    Optional<String> unmet = SandboxRequirements.unmetReason();
    if (unmet.isPresent()) {
      out.println(
          "noneops demo --shell: this machine cannot boot a sandboxed systemd: " + unmet.get());
      return ExitCode.FAILURE;
    }
    Path jar = LifecycleDemo.cliJar();
    Path cache = LifecycleDemo.cache();
    ArtifactRepository repo = new ArtifactRepository(cache.resolve("artifacts"));
    out.println("building the artifacts (cached in " + cache + ") ...");
    out.flush();
    LifecycleDemo.publishArtifacts(cache, repo, cache.resolve("images").resolve("busybox.tar"));
    try (ArtifactServer server = ArtifactServer.serve(repo.root(), options.bytesPerSecond())) {
      out.println("booting a sandboxed systemd ...");
      out.flush();
      SandboxDisk disk =
          SandboxDisk.create(NAME).withSeparateVolume(LifecycleDemo.CONTAINERD_VOLUME);
      SandboxAgent node = SandboxAgent.bootFirst(disk, NAME, server.uri().getPort(), jar);
      Cleanup cleanup = new Cleanup(node, server);
      Thread onSignal = new Thread(cleanup, "noneops-shell-cleanup");
      Runtime.getRuntime().addShutdownHook(onSignal);
      try {
        SystemdSandbox sandbox = node.sandbox();
        prepare(sandbox, server);
        describe(out, sandbox, server, options.bytesPerSecond());
        out.flush();
        while (stop.read() >= 0) {
          // the operator's input is not for us: only its end is
        }
        out.println("stopping the sandbox and removing its disk ...");
        out.flush();
      } finally {
        cleanup.run();
        Runtime.getRuntime().removeShutdownHook(onSignal);
      }
      out.println("done: the sandbox and its disk are gone");
      return ExitCode.OK;
    }
  }

  /** The configuration, {@code noneops} on the sandbox's {@code PATH}, LocalDNS's link type. */
  private static void prepare(SystemdSandbox sandbox, ArtifactServer server) throws Exception {
    ConfigJson config = ConfigJson.of(LifecycleDemo.K8S)
        .withContainerd(LifecycleDemo.CONTAINERD_OLD.version())
        .withRunc(LifecycleDemo.RUNC.version())
        .withDownloadsFrom(server.uri().toString());
    write(sandbox.path(LifecycleDemo.CONFIG), config.json());
    write(
        sandbox.path(LifecycleDemo.NEXT),
        config.withContainerd(LifecycleDemo.CONTAINERD_NEW.version()).json());
    Path script = sandbox.path(NONEOPS);
    write(script, "#!/bin/sh\nexec " + shellWords(cliCommand(sandbox)) + " \"$@\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    DummyLinkStandIn.installWhereNeeded(sandbox);
  }

  private static List<String> cliCommand(SystemdSandbox sandbox) {
    return SandboxCli.alreadyIn(sandbox).commandInside();
  }

  private static void describe(
      PrintWriter out, SystemdSandbox sandbox, ArtifactServer server, long bytesPerSecond) {
    String enter = shellWords(sandbox.inside(List.of()));
    out.println();
    out.println("A sandboxed real systemd runs as pid " + sandbox.pid() + " (its files: "
        + sandbox.path("/") + "), in a network of its own;");
    out.println("the artifacts are served at " + server.uri() + " inside it ("
        + DownloadRate.describe(bytesPerSecond) + " per download).");
    out.println("Written inside: " + LifecycleDemo.CONFIG + " (a bootstrap's configuration), "
        + LifecycleDemo.NEXT + " (containerd " + LifecycleDemo.CONTAINERD_NEW.version()
        + ", for an upgrade), " + NONEOPS + ".");
    out.println();
    out.println("A shell on the node, on a terminal of the sandbox's own (as ssh gives one: the"
        + " sandbox has its own /dev/pts,");
    out.println("where this terminal is not, so a program there could not drive it):");
    out.println("  " + enter + " script -qec /bin/bash /dev/null");
    out.println("One command on the node, its output as it writes it (to a pipe, a file):");
    out.println("  " + enter + " noneops preflight --no-kernel-modules");
    out.println("The node shares this machine's kernel: give bootstrap --no-kernel-modules, e.g.");
    out.println("  noneops bootstrap --no-kernel-modules");
    out.println();
    out.println("End the input (Ctrl-D) or interrupt (Ctrl-C) to stop the sandbox and remove its"
        + " disk.");
  }

  private static void write(Path file, String content) throws Exception {
    Files.createDirectories(Objects.requireNonNull(file.getParent(), "a parent directory"));
    Files.writeString(file, content, UTF_8);
  }

  /** {@code words} as one POSIX shell command line: each word quoted when it needs it. */
  static String shellWords(List<String> words) {
    return words.stream().map(TryItOnASandbox::shellWord).collect(Collectors.joining(" "));
  }

  private static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./:=,+@%-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /** Stops the sandbox (removing its disk) and the server, once, whoever asks first. */
  private static final class Cleanup implements Runnable {
    private final AtomicBoolean done = new AtomicBoolean();
    private final SandboxAgent node;
    private final ArtifactServer server;

    Cleanup(SandboxAgent node, ArtifactServer server) {
      this.node = node;
      this.server = server;
    }

    @Override
    public void run() {
      if (done.compareAndSet(false, true)) {
        try {
          node.close();
        } finally {
          server.close();
        }
      }
    }
  }
}
