package dev.noneops.benchmarks.e2e;

import dev.noneops.cli.wiring.DownloadThreads;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.DownloadArtifact;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.RootFs;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;

/**
 * Row 3: installing ~300 MB of node artifacts from a local HTTP server with checksums verified.
 * noneops' {@link Node#prepare()} on the real host adapters (layout in a fresh directory each run,
 * downloads on the CLI's {@link DownloadThreads}) against a shell script doing {@code curl} +
 * {@code sha256sum -c} + {@code tar}/{@code install} of the very URLs noneops fetched; then
 * re-preparing an installed version, which must download nothing and read no installed file.
 * Runs are interleaved so both see the same machine.
 *
 * <p>Usage: {@code InstallBenchmark <section.md> [runs]}.
 */
public final class InstallBenchmark {
  static final String K8S = "1.31.4";
  static final int MB = 1 << 20;

  /** Binary sizes shaped like the upstream ones (kubelet is the largest). */
  static final Map<String, Integer> SIZES = Map.ofEntries(
      Map.entry("kubelet", 110 * MB),
      Map.entry("kubectl", 55 * MB),
      Map.entry("kube-proxy", 45 * MB),
      Map.entry("containerd", 40 * MB),
      Map.entry("containerd-shim-runc-v2", 10 * MB),
      Map.entry("ctr", 20 * MB),
      Map.entry("runc", 12 * MB),
      Map.entry("crictl", 5 * MB),
      Map.entry("coredns", 10 * MB));

  static final List<String> CNI_PLUGINS = List.of("bridge", "host-local", "loopback", "portmap");

  private InstallBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args.length > 0 ? args[0] : "install.md");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    if (runs < 1 || runs > 50) {
      throw new IllegalArgumentException("runs must be within 1..50: " + runs);
    }
    Path work = Files.createTempDirectory(Path.of("/var/tmp"), "noneops-bench-install-");
    try {
      run(sectionFile, runs, work);
    } finally {
      Shell.deleteTree(work);
    }
  }

  private static void run(Path sectionFile, int runs, Path work) throws Exception {
    ArtifactRepository repo = new ArtifactRepository(work.resolve("repo"));
    RealHost real = RealHost.create();
    HostPorts ports = real.ports(noSystemd());
    try (ArtifactServer server = ArtifactServer.serve(repo.root())) {
      byte[] config = ConfigJson.of(K8S)
          .withDownloadsFrom(server.uri().toString())
          .json()
          .getBytes(StandardCharsets.UTF_8);
      RootFs goal =
          node(ports, config, work.resolve("naming"), Runnable::run).goalState().rootFs();
      long bytes = publish(repo, goal);
      Path manifest = baselineManifest(work, goal);
      Path script = writeBaselineScript(work);

      Samples ours = new Samples("ms");
      Samples baseline = new Samples("ms");
      Samples reprepare = new Samples("ms");
      List<Long> reprepareRequests = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        Path layoutRoot = work.resolve("node-" + i);
        try (DownloadThreads threads = new DownloadThreads()) {
          Node node = node(ports, config, layoutRoot, threads);
          long start = System.nanoTime();
          node.prepare();
          ours.add((System.nanoTime() - start) / 1e6);
        }

        int before = server.requests().size();
        try (DownloadThreads threads = new DownloadThreads()) {
          Node again = node(ports, config, layoutRoot, threads);
          long t = System.nanoTime();
          again.prepare();
          reprepare.add((System.nanoTime() - t) / 1e6);
        }
        reprepareRequests.add((long) (server.requests().size() - before));
        Shell.deleteTree(layoutRoot);

        Path dest = work.resolve("script-" + i);
        Shell.Result r = Shell.check(
            List.of("bash", script.toString(), manifest.toString(), dest.toString()),
            Duration.ofMinutes(10));
        baseline.add(r.nanos() / 1e6);
        Shell.deleteTree(dest);
      }
      long maxRequests =
          reprepareRequests.stream().mapToLong(Long::longValue).max().orElse(0);
      new Section()
          .heading("3. Install of " + bytes / MB
              + " MB of artifacts from a local HTTP server, checksums verified")
          .paragraph(goal.artifacts().size()
              + " artifacts (kubelet, kubectl, kube-proxy binaries; containerd, CNI, crictl and "
              + "CoreDNS tarballs; runc) with the checksum documents their projects publish, served from "
              + server.uri() + " (loopback). "
              + "noneops: `Node.prepare()` on `RealHost` into a fresh layout each run, wired as the CLI wires it: the "
              + "artifacts download in parallel on " + DownloadThreads.DEFAULT_THREADS
              + " threads (`DownloadThreads`), each "
              + "hashed while it streams and checked against its published checksum; binaries are fsynced and renamed into place, tarballs land "
              + "in scratch space without fsync and every extracted file is hashed and written durably (fsync of file and "
              + "directory); `MANIFEST.json` records size, mode, sha256, inode and change/modification time of every file "
              + "and is written durably last. Baseline: `curl -fsS` of the same URLs one after another, `sha256sum -c` "
              + "against the published checksum of every artifact, `tar -xzf` and `install -m 0755` into a fresh directory (no fsync). Re-prepare: a second "
              + "`Node.prepare()` of the installed layout, which lists the version directory, `lstat`s every file and "
              + "trusts it when inode, size, mode and times match the manifest's record, reading only `MANIFEST.json` "
              + "(a mismatch falls back to hashing every file; `noneops verify` always hashes every file). "
              + "Interleaved, " + runs + " runs each.")
          .line("| figure | noneops | baseline (curl + sha256sum + install) | ratio | goal |")
          .line("|---|---|---|---|---|")
          .line("| install " + bytes / MB + " MB | " + ours.summary() + " | " + baseline.summary()
              + " | **" + Samples.ratio(ours, baseline) + "** | ≤ 0.5: **"
              + (baseline.median() > 0 && ours.median() / baseline.median() <= 0.5
                  ? "met"
                  : "missed")
              + "** |")
          .line("| re-prepare an installed version | " + reprepare.summary() + ", " + maxRequests
              + " HTTP requests (max over runs) | — | — | ≤ 50 ms, 0 bytes |")
          .line("")
          .writeTo(sectionFile);
    }
  }

  static Node node(HostPorts ports, byte[] config, Path layoutRoot, Executor downloads) {
    Overrides overrides = Overrides.builder()
        .layout(new Layout(layoutRoot))
        .parallelExecutor(downloads)
        .build();
    return new Node(Params.builder(ports)
        .config(AgentConfigParser.parseAndValidate(config, "amd64"))
        .overrides(overrides)
        .build());
  }

  /** Publishes artifacts of the upstream shapes with incompressible content of realistic sizes; returns the bytes published. */
  static long publish(ArtifactRepository repo, RootFs goal) throws IOException {
    SplittableRandom random = new SplittableRandom(42);
    String arch = goal.hostArch();
    long total = 0;
    for (String bin : List.of("kubelet", "kubectl", "kube-proxy")) {
      total += put(
          repo,
          DownloadArtifact.KUBERNETES,
          goal.versions().kubernetes(),
          arch,
          bin,
          content(random, SIZES.get(bin)));
    }
    Map<String, byte[]> containerd = new LinkedHashMap<>();
    for (String bin : List.of("containerd", "containerd-shim-runc-v2", "ctr")) {
      containerd.put("bin/" + bin, content(random, SIZES.get(bin)));
    }
    total += put(
        repo,
        DownloadArtifact.CONTAINERD,
        goal.versions().containerd(),
        arch,
        "",
        NodeArtifactBuilder.tarGz(containerd));
    total += put(
        repo,
        DownloadArtifact.RUNC,
        goal.versions().runc(),
        arch,
        "",
        content(random, SIZES.get("runc")));
    Map<String, byte[]> cni = new LinkedHashMap<>();
    for (String plugin : CNI_PLUGINS) {
      cni.put(plugin, content(random, 4 * MB));
    }
    total += put(
        repo,
        DownloadArtifact.CNI,
        goal.versions().cniPlugins(),
        arch,
        "",
        NodeArtifactBuilder.tarGz(cni));
    total += put(
        repo,
        DownloadArtifact.CRICTL,
        goal.versions().crictl(),
        arch,
        "",
        NodeArtifactBuilder.tarGz(Map.of("crictl", content(random, SIZES.get("crictl")))));
    total += put(
        repo,
        DownloadArtifact.LOCALDNS,
        goal.versions().localDns(),
        arch,
        "",
        NodeArtifactBuilder.tarGz(Map.of("coredns", content(random, SIZES.get("coredns")))));
    return total;
  }

  private static long put(
      ArtifactRepository repo,
      DownloadArtifact a,
      String version,
      String arch,
      String binary,
      byte[] content)
      throws IOException {
    repo.put(a, version, arch, binary, content);
    return content.length;
  }

  private static byte[] content(SplittableRandom random, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i += 8) {
      long v = random.nextLong();
      for (int k = 0; k < 8 && i + k < size; k++) {
        b[i + k] = (byte) (v >>> (8 * k));
      }
    }
    return b;
  }

  /** One line per artifact: {@code <url> <sha256-url> <binary|tar> <name-or-dir>}, the same URLs noneops fetches. */
  private static Path baselineManifest(Path work, RootFs goal) throws IOException {
    StringBuilder s = new StringBuilder();
    for (Artifact a : goal.artifacts()) {
      String shaUrl;
      if (a.checksum() instanceof Artifact.Checksum.Published published) {
        shaUrl = published.url().toString();
      } else if (a.checksum() instanceof Artifact.Checksum.Unverified) {
        shaUrl = "-";
      } else {
        throw new IllegalStateException("the benchmark configuration pins no checksum, yet "
            + a.name() + " has " + a.checksum());
      }
      String how = a.install() instanceof Artifact.Install.Binary b
          ? "binary " + b.fileName()
          : "tar " + ((Artifact.Install.Tarball) a.install()).targetDir();
      s.append(String.format(Locale.ROOT, "%s %s %s%n", a.url(), shaUrl, how));
    }
    return Files.writeString(work.resolve("baseline-manifest.txt"), s.toString());
  }

  private static Path writeBaselineScript(Path work) throws IOException {
    String script = """
        #!/usr/bin/env bash
        # What operators script today: fetch, verify against the published sidecar, install.
        set -euo pipefail
        manifest="$1"; dest="$2"
        mkdir -p "$dest/bin" "$dest/libexec/cni" "$dest/.dl"
        while read -r url sha_url how target; do
          f="$dest/.dl/$(basename "$url")"
          curl -fsS --max-time 120 -o "$f" "$url"
          if [[ "$sha_url" != - ]]; then
            echo "$(curl -fsS --max-time 30 "$sha_url" | cut -d' ' -f1)  $f" | sha256sum -c --quiet -
          fi
          if [[ "$how" == binary ]]; then
            install -m 0755 "$f" "$dest/bin/$target"
          else
            x="$dest/.dl/x"; rm -rf "$x"; mkdir -p "$x"
            tar -xzf "$f" -C "$x"
            find "$x" -type f -exec install -m 0755 -t "$dest/$target" {} +
          fi
        done < "$manifest"
        rm -rf "$dest/.dl"
        """;
    return Files.writeString(work.resolve("baseline-install.sh"), script);
  }

  /**
   * A host without systemd's units: a first {@code prepare()} asks only whether a kubelet or
   * containerd of the host's own is loaded (the foreign-stack check), and hears that none is;
   * any other call would be a finding, so it fails loudly.
   */
  static Systemd noSystemd() {
    return (Systemd) Proxy.newProxyInstance(
        Systemd.class.getClassLoader(), new Class<?>[] {Systemd.class}, (proxy, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
              case "toString" -> "no systemd (install benchmark)";
              case "hashCode" -> System.identityHashCode(proxy);
              default -> proxy == args[0];
            };
          }
          if (method.getName().equals("status")) {
            return new UnitStatus(
                (String) args[0], LoadState.NOT_FOUND, ActiveState.INACTIVE, "dead", 0, "", "");
          }
          throw new IllegalStateException(
              "the install benchmark has no systemd, yet prepare called Systemd."
                  + method.getName());
        });
  }
}
