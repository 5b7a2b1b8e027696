package dev.noneops.demo;

import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Overrides;
import dev.noneops.testkit.fixtures.pods.RealPod;
import dev.noneops.testkit.fixtures.pods.RealPods;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The demo's pods on the sandboxed node, started as kubelet would start them (kubelet itself is a
 * stand-in): busybox containers the node's own containerd runs in namespace {@code k8s.io} under
 * runc shims, in cgroups below {@code /kubepods}, on a bridge network of Debian's CNI plugins
 * whose configuration the demo writes as the CNI agent would ({@link RealPods}). Each round starts
 * {@value #COUNT} pods with new ids, as kubelet makes new pod sandboxes after the stack restarts,
 * and checks that the round before was ended: its shims, processes, network namespaces and veths
 * gone.
 */
final class DemoPods {
  static final int COUNT = 3;
  private static final Layout LAYOUT = Layout.defaultLayout();

  private final Supplier<SystemdSandbox> sandbox;
  private List<RealPod> running = List.of();
  private int round;
  private Footprint before;

  DemoPods(Supplier<SystemdSandbox> sandbox) {
    this.sandbox = sandbox;
  }

  /** Stages the image archive where the node's containerd imports it when the node starts. */
  static void stageImage(SystemdSandbox sandbox, Path archive) throws IOException {
    Path dir = sandbox.path(Overrides.DEFAULT_IMAGE_ARCHIVE_DIR);
    Files.createDirectories(dir);
    Files.copy(archive, dir.resolve("busybox.tar"), StandardCopyOption.REPLACE_EXISTING);
  }

  /** Counts the sandbox's mounts, links, network namespaces and cgroups before the node exists. */
  String countBefore() throws IOException {
    before = Footprint.of(sandbox.get());
    return before.counts();
  }

  /** Starts a round of pods and checks they reach each other over the bridge. */
  String start() {
    RealPods pods = pods();
    pods.writeNetworkConfiguration();
    round++;
    List<RealPod> started = new ArrayList<>();
    for (int i = 1; i <= COUNT; i++) {
      started.add(pods.start(
          "web-" + i + "-r" + round,
          String.format("d3e40000-0000-0000-%04d-%012d", round, i),
          "kubernetes.io~empty-dir/cache"));
    }
    running = List.copyOf(started);
    RealPod first = running.get(0);
    RealPod second = running.get(1);
    if (!pods.reaches(first.id(), second.address())) {
      throw new IllegalStateException(
          first.id() + " does not reach " + second.id() + " at " + second.address());
    }
    return COUNT + " pods " + ids(running) + " at " + addresses(running) + ", shims "
        + shims(running) + "; " + first.id() + " pings " + second.address();
  }

  /**
   * Checks that what happened to the stack ({@code what}) ended the running pods, then starts the
   * next round.
   */
  String endedBy(String what) {
    List<RealPod> previous = running;
    checkEnded(previous, what);
    return what + " ended " + ids(previous) + " (shims, processes, network namespaces, veths gone);"
        + " started again: " + start();
  }

  /**
   * After a reboot: the power cut ended every process with the old sandbox, so only the start of
   * the next round is left.
   */
  String startedAgainAfterTheReboot() {
    return "the power cut ended " + ids(running) + " with every process; started again: " + start();
  }

  /** The footprint with pods running, beyond the one before the bootstrap. */
  String countWithPods() throws IOException {
    Footprint with = Footprint.of(sandbox.get());
    return with.counts() + " (" + with.beyond(before) + ")";
  }

  /** Checks that the teardown left the sandbox as it counted before the bootstrap. */
  String countAfterTeardown() throws IOException {
    Footprint after = Footprint.of(sandbox.get());
    checkEnded(running, "the teardown");
    if (!after.sameAs(before)) {
      throw new IllegalStateException(
          "the teardown left a footprint: " + after.differenceFrom(before));
    }
    return after.counts() + ": as before the bootstrap";
  }

  private void checkEnded(List<RealPod> pods, String what) {
    SystemdSandbox box = sandbox.get();
    String links = box.exec("ip", "-o", "link", "show").orThrow().stdout();
    for (RealPod pod : pods) {
      List<String> left = new ArrayList<>();
      if (box.exec("test", "-e", "/proc/" + pod.shimPid()).succeeded()) {
        left.add("shim pid " + pod.shimPid());
      }
      if (box.exec("test", "-e", "/proc/" + pod.pid()).succeeded()) {
        left.add("process pid " + pod.pid());
      }
      if (links.contains(pod.hostVeth() + "@")) {
        left.add("veth " + pod.hostVeth());
      }
      String netns = box.exec(
              "sh", "-c", "ls -l /proc/[0-9]*/ns/net 2>/dev/null | grep -cF '" + pod.netns() + "'")
          .stdout()
          .strip();
      if (!netns.equals("0")) {
        left.add("network namespace " + pod.netns());
      }
      if (!left.isEmpty()) {
        throw new IllegalStateException(
            what + " left " + pod.id() + "'s " + String.join(", ", left));
      }
    }
  }

  private RealPods pods() {
    return new RealPods(
        sandbox.get(),
        LAYOUT.currentBin().resolve("ctr").toString(),
        LAYOUT.currentBin().resolve("runc").toString());
  }

  private static String ids(List<RealPod> pods) {
    return pods.isEmpty()
        ? "(none)"
        : pods.get(0).id() + ".." + pods.get(pods.size() - 1).id();
  }

  private static String addresses(List<RealPod> pods) {
    return String.join(", ", pods.stream().map(RealPod::address).toList());
  }

  private static String shims(List<RealPod> pods) {
    return String.join(", ", pods.stream().map(p -> Long.toString(p.shimPid())).toList());
  }
}
