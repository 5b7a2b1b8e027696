package dev.noneops.benchmarks.e2e;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.TeardownResult;
import dev.noneops.hostfs.RealHost;
import dev.noneops.hostfs.mounts.MountInfoParser;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.UnmountFlag;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * Row 2: teardown of a synthetic node — 2,000 tmpfs and bind mounts below kubelet's pod
 * directories, 500 shim-like processes carrying this node's containerd address, 200 pod cgroups
 * — by {@link Teardown#destroy()} on the real adapters, against a script in the style of
 * k3s-killall.sh ({@code ps | grep}, {@code kill -9}, {@code sort -r} of the mounts, {@code umount}
 * and {@code rm -rf} each, {@code rmdir} of the cgroups). Both run on an identical node built
 * afresh before each run, and each run is checked to have left nothing behind.
 *
 * <p>Safety: the driver refuses to run unless it is in a private mount namespace (bin/benchmarks
 * starts it under {@code unshare --mount --propagation private}), the node lives below a fresh
 * temporary directory, the cgroups below a dedicated subtree of the unified hierarchy, and only
 * processes this driver started carry the node's containerd address.
 *
 * <p>Usage: {@code TeardownBenchmark <section.md> [runs]}.
 */
public final class TeardownBenchmark {
  static final int PODS = 200;
  static final int MOUNTS_PER_POD = 10;
  static final int SHIMS = 500;
  /** Row 2's node. */
  static final Shape ROW_SHAPE = new Shape(PODS, MOUNTS_PER_POD, SHIMS);

  static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(5);

  private TeardownBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args.length > 0 ? args[0] : "teardown.md");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    if (runs < 1 || runs > 20) {
      throw new IllegalArgumentException("runs must be within 1..20: " + runs);
    }
    requirePrivateMountNamespace();
    Path unified = unifiedHierarchy();
    Path cgroupTop = Files.createDirectory(
        unified.resolve("noneops-bench-teardown-" + ProcessHandle.current().pid()));
    Path work = Files.createTempDirectory(Path.of("/var/tmp"), "noneops-bench-teardown-");
    Files.writeString(work.resolve("killall.sh"), KILLALL);
    Path shimBinary = shimBinary(work);
    Samples ours = new Samples("ms");
    Samples baseline = new Samples("ms");
    List<String> leftovers = new ArrayList<>();
    try {
      for (int i = 0; i < runs * 2; i++) {
        boolean noneops = i % 2 == 0;
        SyntheticNode node = SyntheticNode.build(
            work.resolve("node-" + i),
            cgroupTop.resolve("run-" + i),
            unified,
            shimBinary,
            ROW_SHAPE);
        try {
          long start = System.nanoTime();
          if (noneops) {
            TeardownResult report = teardown(node, unified);
            ours.add((System.nanoTime() - start) / 1e6);
            if (!report.complete()) {
              leftovers.add("noneops run " + i + ": " + report.blocking());
            }
          } else {
            Shell.check(
                List.of(
                    "bash",
                    work.resolve("killall.sh").toString(),
                    node.root().toString(),
                    node.containerdAddress().toString(),
                    node.cgroupDir().toString()),
                SCRIPT_TIMEOUT);
            baseline.add((System.nanoTime() - start) / 1e6);
          }
          String who = (noneops ? "noneops" : "script") + " run " + i + ": ";
          node.leftovers().forEach(l -> leftovers.add(who + l));
        } finally {
          node.cleanUp();
        }
      }
    } finally {
      try (Stream<Path> walk = Files.walk(cgroupTop)) {
        for (Path dir : walk.filter(Files::isDirectory)
            .sorted((a, b) -> b.getNameCount() - a.getNameCount())
            .toList()) {
          Files.deleteIfExists(dir);
        }
      }
      Shell.deleteTree(work);
    }
    new Section()
        .heading("2. Teardown of a synthetic node: " + PODS * MOUNTS_PER_POD + " mounts, " + SHIMS
            + " shim-like processes, " + PODS + " pod cgroups")
        .paragraph(
            "Built afresh before every run below a temporary host root, in a private mount namespace, cgroups below a "
                + "dedicated subtree of the unified hierarchy (" + unified
                + "). Per pod: 7 tmpfs and 3 bind mounts under "
                + "`/var/lib/kubelet/pods/<uid>/volumes`; shims are copies of perl named `containerd-shim-runc-v2` that sleep with "
                + "`-namespace k8s.io -id <id> -address <root>/run/containerd/containerd.sock` in argv (GNU sleep rejects those "
                + "flags, so it cannot carry them), 2-3 per pod cgroup. noneops: `Teardown.destroy()` on `RealHost` (processes "
                + "identified by argv and cgroup, `cgroup.kill`, unmount deepest first re-reading mountinfo, mount-safe removal). "
                + "Baseline: `killall.sh` in the style of k3s-killall.sh (`ps -e -o pid,args | grep`, `kill -9`, wait, "
                + "`/proc/self/mounts` sorted reverse, `umount` + `rm -rf` per mount via xargs, `rm -rf` of the data dirs, `rmdir` "
                + "of the cgroups deepest first). Alternating, " + runs
                + " runs each; after every run the driver checks that no "
                + "mount below the root, no shim, no pod cgroup and no data directory is left.")
        .line("| figure | noneops | baseline (k3s-killall style) | ratio | goal | left behind |")
        .line("|---|---|---|---|---|---|")
        .line("| teardown | " + ours.summary() + " | " + baseline.summary() + " | **"
            + Samples.ratio(ours, baseline) + "** | ≤ 0.5 | "
            + (leftovers.isEmpty() ? "nothing, by either" : String.join("; ", leftovers)) + " |")
        .line("")
        .writeTo(sectionFile);
  }

  static TeardownResult teardown(SyntheticNode node, Path unified) throws InterruptedException {
    RealHost real = RealHost.builder().cgroupRoot(node.cgroupDir()).build();
    TeardownOptions settings = TeardownOptions.defaults()
        .withProcessDeadline(Duration.ofSeconds(30))
        .withCgroupDeadline(Duration.ofSeconds(30));
    Teardown teardown = new Teardown(
        real.ports(new NoUnitsSystemd()),
        node.layout(),
        node.paths(),
        settings,
        LoggerFactory.getLogger(TeardownBenchmark.class));
    return teardown.destroy();
  }

  static void requirePrivateMountNamespace() throws IOException {
    String outer = System.getenv("NONEOPS_OUTER_MOUNT_NS");
    String here = Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString();
    if (outer == null || outer.isEmpty() || outer.equals(here)) {
      throw new IllegalStateException(
          "the teardown benchmark mounts 2,000 file systems and must run in a private mount namespace: "
              + "start it through bin/benchmarks (unshare --mount --propagation private, NONEOPS_OUTER_MOUNT_NS set); here "
              + here
              + ", outer " + outer);
    }
  }

  /** The unified (cgroup2) hierarchy's mount point, read through noneops' own mountinfo parser. */
  static Path unifiedHierarchy() throws Exception {
    List<MountEntry> mounts =
        MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo")));
    return mounts.stream()
        .filter(m -> m.fsType().equals("cgroup2"))
        .map(MountEntry::mountPoint)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(
            "no cgroup2 hierarchy is mounted; the teardown benchmark needs one"));
  }

  /** The baseline, shaped after k3s-killall.sh: ps|grep|kill, sorted umount + rm -rf per mount, rm -rf, rmdir cgroups. */
  static final String KILLALL = """
      #!/usr/bin/env bash
      # Arguments: host root, containerd address, pod cgroup tree. Touches nothing outside them.
      set -u
      root="$1"; address="$2"; cgroups="$3"
      pids="$(ps -e -o pid= -o args= | grep -F -- "-address $address" | grep -F containerd-shim | grep -v grep | awk '{print $1}')"
      [ -n "$pids" ] && kill -9 $pids 2>/dev/null
      for _ in $(seq 1 300); do
        alive=""
        for p in $pids; do [ -e "/proc/$p/cmdline" ] && [ -s "/proc/$p/cmdline" ] && alive=1 && break; done
        [ -z "$alive" ] && break
        sleep 0.1
      done
      do_unmount_and_remove() {
        while read -r _ path _; do
          case "$path" in "$1"*) echo "$path" ;; esac
        done < /proc/self/mounts | sort -r | xargs -r -n 1 sh -c 'umount -f "$0" && rm -rf "$0"'
      }
      do_unmount_and_remove "$root/run/containerd"
      do_unmount_and_remove "$root/var/lib/kubelet/pods"
      do_unmount_and_remove "$root/var/lib/kubelet/plugins"
      rm -rf "$root/var/lib/kubelet" "$root/var/lib/containerd" "$root/run/containerd" "$root/opt/unbounded/node"
      find "$cgroups/kubepods.slice" -depth -type d -exec rmdir {} + 2>/dev/null
      exit 0
      """;

  /**
   * How big a synthetic node is: its pod cgroups, the mounts below each pod's volumes (7 tmpfs,
   * then bind mounts, in every 10) and the shim-like processes spread over the pods.
   */
  record Shape(int pods, int mountsPerPod, int shims) {
    Shape {
      if (pods < 1 || mountsPerPod < 0 || shims < 0) {
        throw new IllegalArgumentException("not a node's shape: " + pods + " pods, " + mountsPerPod
            + " mounts per pod, " + shims + " shims");
      }
    }

    int mounts() {
      return pods * mountsPerPod;
    }
  }

  /** Copies perl as a shim-like binary into {@code work} (perl can sleep with any argv). */
  static Path shimBinary(Path work) throws IOException {
    Path shimBinary = work.resolve("bin/containerd-shim-runc-v2");
    Files.createDirectories(Objects.requireNonNull(shimBinary.getParent(), "the shim directory"));
    Files.copy(Path.of("/usr/bin/perl"), shimBinary, StandardCopyOption.COPY_ATTRIBUTES);
    return shimBinary;
  }

  /**
   * Forks the shims from one perl parent that reaps them (not from this JVM, which would keep a
   * reaper thread per child and wake them all as the shims die, inflating the teardown's time
   * with the shims' number): argv {@code <shim binary> <address> <count>}, one child pid per line
   * on stdout, then it waits for every child.
   */
  static final String FORK_SHIMS = String.join(
      "",
      "$| = 1; my ($bin, $address, $n) = @ARGV;",
      "for my $i (0 .. $n - 1) {",
      "  my $pid = fork(); die \"fork: $!\" unless defined $pid;",
      "  if ($pid == 0) {",
      "    open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null');",
      "    exec {$bin} $bin, '-e', 'sleep 600', '--', '-namespace', 'k8s.io', '-id', \"c$i\",",
      "      '-address', $address or die \"exec: $!\";",
      "  }",
      "  print \"$pid\\n\";",
      "}",
      "close(STDOUT); 1 while wait() != -1;");

  /** One synthetic node: its host root, pod mounts, shims and pod cgroups; and its own clean-up. */
  record SyntheticNode(
      Path root, Path cgroupDir, Process parent, List<Long> shims, HostPaths paths, Layout layout) {
    static SyntheticNode build(
        Path root, Path cgroupDir, Path unified, Path shimBinary, Shape shape)
        throws IOException, InterruptedException {
      HostPaths paths = new HostPaths(root, root.resolve("etc/systemd/system"));
      Layout layout = new Layout(root.resolve("opt/unbounded/node"));
      Files.createDirectories(layout.binDir("1.31.4-000000000000"));
      Files.writeString(layout.binDir("1.31.4-000000000000").resolve("kubelet"), "kubelet");
      Files.createDirectories(paths.systemdDir());
      Files.createDirectories(
          paths.containerdStateDir().resolve("io.containerd.content.v1.content"));
      Path address = paths.containerdRunDir().resolve("containerd.sock");
      Files.createDirectories(Objects.requireNonNull(address.getParent(), "the address directory"));
      Path srv = Files.createDirectories(root.resolve("srv"));
      StringBuilder mounts = new StringBuilder("set -e\n");
      for (int pod = 0; pod < shape.pods(); pod++) {
        Path volumes = paths.kubeletDir().resolve("pods/pod-" + pod + "/volumes");
        Files.createDirectories(volumes);
        for (int m = 0; m < shape.mountsPerPod(); m++) {
          Path target = volumes.resolve(
              (m % 10 < 7 ? "kubernetes.io~empty-dir/v" : "kubernetes.io~local-volume/v") + m);
          Files.createDirectories(target);
          if (m % 10 < 7) {
            mounts.append("mount -t tmpfs -o size=64k tmpfs ").append(target).append('\n');
          } else {
            Path source = Files.createDirectories(srv.resolve("data-" + pod + "-" + m));
            mounts
                .append("mount --bind ")
                .append(source)
                .append(' ')
                .append(target)
                .append('\n');
          }
        }
        Files.writeString(volumes.resolve("../etc-hosts"), "127.0.0.1 localhost\n");
      }
      Path script = root.resolve("mounts.sh");
      Files.writeString(script, mounts.toString(), StandardCharsets.UTF_8);
      Shell.check(List.of("sh", script.toString()), Duration.ofMinutes(5));
      Files.delete(script);
      for (int pod = 0; pod < shape.pods(); pod++) {
        Files.createDirectories(cgroupDir.resolve(podCgroup(pod)));
      }
      Process parent = new ProcessBuilder(
              "perl",
              "-e",
              FORK_SHIMS,
              shimBinary.toString(),
              address.toString(),
              Integer.toString(shape.shims()))
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      List<Long> shims = new ArrayList<>(shape.shims());
      try (BufferedReader lines = new BufferedReader(
          new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
        for (int i = 0; i < shape.shims(); i++) {
          String line = lines.readLine();
          if (line == null) {
            throw new IOException("the shim parent started only " + i + " of " + shape.shims());
          }
          long pid = Long.parseLong(line.strip());
          shims.add(pid);
          Files.writeString(
              cgroupDir.resolve(podCgroup(i % shape.pods())).resolve("cgroup.procs"),
              Long.toString(pid));
        }
      }
      return new SyntheticNode(root, cgroupDir, parent, shims, paths, layout);
    }

    static String podCgroup(int pod) {
      return "kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" + pod + ".slice";
    }

    Path containerdAddress() {
      return paths.containerdRunDir().resolve("containerd.sock");
    }

    /** What the teardown left: mounts below the root, live shims, pod cgroups, data directories. */
    List<String> leftovers() throws Exception {
      List<String> left = new ArrayList<>();
      long mounts =
          MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo"))).stream()
              .filter(m -> m.mountPoint().startsWith(root))
              .count();
      if (mounts > 0) {
        left.add(mounts + " mounts");
      }
      long alive = 0;
      for (long pid : shims) {
        if (!gone(pid, Duration.ofSeconds(5))) {
          alive++;
        }
      }
      if (alive > 0) {
        left.add(alive + " shims alive");
      }
      if (Files.exists(cgroupDir.resolve("kubepods.slice"))) {
        left.add("pod cgroups");
      }
      for (Path dir : List.of(
          paths.kubeletDir(),
          paths.containerdStateDir(),
          paths.containerdRunDir(),
          layout.root())) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
          left.add(dir + " exists");
        }
      }
      return left;
    }

    /** Whether the shim {@code pid} ended (gone, or a zombie without argv) within {@code within}. */
    private static boolean gone(long pid, Duration within) throws InterruptedException {
      long deadline = System.nanoTime() + within.toNanos();
      while (shimCommandLine(pid).isPresent()) {
        if (System.nanoTime() > deadline) {
          return false;
        }
        Thread.sleep(10);
      }
      return true;
    }

    /** The shim's command line while it runs (a reused pid would not be a shim). */
    private static Optional<String> shimCommandLine(long pid) {
      try {
        String cmdline = Files.readString(Path.of("/proc/" + pid + "/cmdline"));
        return cmdline.contains("-namespace") ? Optional.of(cmdline) : Optional.empty();
      } catch (IOException e) {
        return Optional.empty();
      }
    }

    /** Ends only this node's own processes, lazily detaches only mounts below its root, removes its cgroups and files. */
    void cleanUp() throws Exception {
      for (long pid : shims) {
        ProcessHandle.of(pid)
            .filter(p -> shimCommandLine(pid).isPresent())
            .ifPresent(ProcessHandle::destroyForcibly);
      }
      if (!parent.waitFor(30, TimeUnit.SECONDS)) {
        parent.destroyForcibly();
      }
      List<MountEntry> left = new ArrayList<>(
          MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo"))).stream()
              .filter(m -> m.mountPoint().startsWith(root))
              .toList());
      left.sort((a, b) -> b.mountPoint().getNameCount() - a.mountPoint().getNameCount());
      var mountTable = RealHost.create().mounts();
      for (MountEntry m : left) {
        mountTable.unmount(m.mountPoint(), Set.of(UnmountFlag.DETACH));
      }
      if (Files.exists(cgroupDir)) {
        try (Stream<Path> walk = Files.walk(cgroupDir)) {
          for (Path dir : walk.filter(Files::isDirectory)
              .sorted((a, b) -> b.getNameCount() - a.getNameCount())
              .toList()) {
            Files.deleteIfExists(dir);
          }
        }
      }
      Optional<MountEntry> still =
          MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo"))).stream()
              .filter(m -> m.mountPoint().startsWith(root))
              .findFirst();
      if (still.isPresent()) {
        throw new IllegalStateException("cannot clean up the synthetic node: "
            + still.get().mountPoint() + " is still mounted");
      }
      Shell.deleteTree(root);
    }
  }
}
