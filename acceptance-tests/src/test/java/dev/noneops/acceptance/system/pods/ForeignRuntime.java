package dev.noneops.acceptance.system.pods;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.testkit.fixtures.pods.RealPods;
import dev.noneops.testkit.fixtures.sandbox.ExecResult;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container runtime beside the node, as an operator might run one (with a busybox for probes): Debian's containerd from
 * {@code /opt/foreign-runtime} (no standard path, so no system containerd for the node to refuse),
 * started as a transient unit of its own in a slice of its own, with its own socket, root ({@code
 * /var/lib/foreign-runtime}, a tmpfs) and state ({@code /run/foreign-runtime}), and one container
 * in its own containerd namespace and cgroup. The container is on a CNI network of its own name
 * (its bridge plugins are its own too): its configuration is in {@code /etc/cni/net.d} (named to
 * sort after the node's, so {@code ctr run --cni} of the node's pods picks the node's network)
 * and host-local keeps its reservation in {@code /var/lib/cni/networks/<its net>}.
 */
final class ForeignRuntime {
  static final String HOME = "/opt/foreign-runtime";
  static final String ROOT = "/var/lib/foreign-runtime";
  static final String STATE = "/run/foreign-runtime";
  static final String SOCKET = STATE + "/containerd.sock";
  static final String UNIT = "foreign-runtime.service";
  static final String NAMESPACE = "foreign";
  static final String CONTAINER = "foreign-web";
  static final String CGROUP = "/foreign-runtime/" + CONTAINER;
  static final String NETWORK = "foreign-net";
  static final String BRIDGE = "forbr0";
  static final String SUBNET = "10.232.9.0/24";
  static final String GATEWAY = "10.232.9.1";
  static final String CONFLIST = "/etc/cni/net.d/90-foreign-runtime.conflist";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern ADDRESS = Pattern.compile("\"address\":\\s*\"([0-9.]+)/");

  private final SystemdSandbox sandbox;
  private String address;

  ForeignRuntime(SystemdSandbox sandbox) {
    this.sandbox = sandbox;
  }

  /**
   * Installs the runtime's binaries and configuration, starts it, imports the image and runs the
   * container on its network.
   */
  void start(Path containerdUsrBin, Path runc, Path cniPlugins, Path busybox, Path imageArchive)
      throws IOException {
    Path bin = sandbox.path(HOME + "/bin");
    Path cni = sandbox.path(HOME + "/cni");
    Files.createDirectories(bin);
    Files.createDirectories(cni);
    for (String name : List.of("containerd", "containerd-shim-runc-v2", "ctr")) {
      copyExecutable(containerdUsrBin.resolve(name), bin.resolve(name));
    }
    copyExecutable(runc, bin.resolve("runc"));
    copyExecutable(busybox, bin.resolve("busybox"));
    for (String name : List.of("bridge", "host-local", "loopback")) {
      copyExecutable(cniPlugins.resolve(name), cni.resolve(name));
    }
    Files.copy(
        imageArchive, sandbox.path(HOME + "/busybox.tar"), StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(
        sandbox.path(HOME + "/config.toml"),
        """
        version = 2
        root = "%s"
        state = "%s"
        disabled_plugins = ["io.containerd.grpc.v1.cri"]
        [grpc]
          address = "%s"
        [ttrpc]
          address = "%s.ttrpc"
        [debug]
          address = "%s/debug.sock"
        """.formatted(ROOT, STATE, SOCKET, SOCKET, STATE),
        UTF_8);
    String bridge = """
        {"type": "bridge", "bridge": "%s", "isGateway": true, "ipMasq": false,
         "ipam": {"type": "host-local", "ranges": [[{"subnet": "%s", "gateway": "%s"}]]}}""".formatted(BRIDGE, SUBNET, GATEWAY);
    Files.writeString(
        sandbox.path(HOME + "/bridge.json"),
        "{\"cniVersion\": \"0.4.0\", \"name\": \"" + NETWORK + "\", "
            + bridge.substring(bridge.indexOf('{') + 1),
        UTF_8);
    Files.createDirectories(sandbox.path("/etc/cni/net.d"));
    Files.writeString(
        sandbox.path(CONFLIST),
        "{\"cniVersion\": \"0.4.0\", \"name\": \"" + NETWORK + "\", \"plugins\": [" + bridge
            + "]}\n",
        UTF_8);

    exec("mkdir", "-p", ROOT, STATE);
    exec("mount", "-t", "tmpfs", "-o", "mode=0711", "foreign-runtime-disk", ROOT);
    exec(
        "systemd-run",
        "--unit",
        UNIT,
        "--slice",
        "foreign.slice",
        "-E",
        "PATH=" + HOME + "/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        HOME + "/bin/containerd",
        "--config",
        HOME + "/config.toml");
    awaitServing();
    exec(ctr("images", "import", HOME + "/busybox.tar"));
    exec(ctr(
        "run",
        "-d",
        "--cpu-shares",
        "0",
        "--runc-binary",
        HOME + "/bin/runc",
        "--cgroup",
        CGROUP,
        RealPods.IMAGE,
        CONTAINER,
        "/bin/sleep",
        "2147483647"));
    String result = exec(
        "sh",
        "-c",
        "CNI_COMMAND=ADD CNI_CONTAINERID=" + CONTAINER + " CNI_NETNS=/proc/" + pid()
            + "/ns/net CNI_IFNAME=eth0 CNI_PATH=" + HOME + "/cni " + HOME + "/cni/bridge < "
            + HOME + "/bridge.json");
    Matcher m = ADDRESS.matcher(result);
    if (!m.find()) {
      throw new AssertionError("the foreign container got no address: " + result);
    }
    address = m.group(1);
  }

  private static void copyExecutable(Path from, Path to) throws IOException {
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    to.toFile().setExecutable(true, false);
  }

  private void awaitServing() {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!sandbox.exec(ctr("version"), Duration.ofSeconds(5)).succeeded()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the foreign containerd does not serve " + SOCKET + ": " + sandbox.journal(UNIT));
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** The container's address on its network. */
  String address() {
    return address;
  }

  /** The pid of the container's process. */
  long pid() {
    return exec(ctr("task", "ls"))
        .lines()
        .map(l -> l.trim().split("\\s+"))
        .filter(cols -> cols.length >= 3 && cols[0].equals(CONTAINER))
        .map(cols -> Long.parseLong(cols[1]))
        .findFirst()
        .orElseThrow(() -> new AssertionError("the foreign container has no task"));
  }

  /**
   * What the runtime is on the host now: its processes, mounts, cgroup, network namespace and
   * host veth, its runc state and shim socket below the shared {@code /run/containerd}, and the
   * bytes of its files below {@code /etc/cni/net.d} and {@code /var/lib/cni}.
   */
  State state() throws IOException {
    long pid = pid();
    long containerd = Long.parseLong(sandbox
        .systemctl("show", "-p", "MainPID", "--value", UNIT)
        .orThrow()
        .stdout()
        .strip());
    long shim =
        Long.parseLong(exec("sh", "-c", "cut -d' ' -f4 /proc/" + pid + "/stat").strip());
    List<String> mounts = new ArrayList<>();
    for (String line :
        Files.readAllLines(Path.of("/proc", Long.toString(sandbox.pid()), "mountinfo"))) {
      String point = line.split(" ")[4];
      if (point.startsWith(ROOT) || point.startsWith(STATE)) {
        mounts.add(point);
      }
    }
    String peer = exec(
        "nsenter",
        "--target",
        Long.toString(pid),
        "--net",
        "ip",
        "-o",
        "link",
        "show",
        "dev",
        "eth0");
    Matcher index = Pattern.compile("eth0@if(\\d+)").matcher(peer);
    String veth = index.find()
        ? exec("ip", "-o", "link", "show")
            .lines()
            .filter(l -> l.startsWith(index.group(1) + ": "))
            .map(l -> l.split(": ")[1].split("@")[0])
            .findFirst()
            .orElse("(none)")
        : "(no veth)";
    return new State(
        containerd,
        shim,
        pid,
        exec("cat", "/proc/" + pid + "/cgroup").strip(),
        exec("readlink", "/proc/" + pid + "/ns/net").strip(),
        veth,
        mounts,
        exec(
            "sh",
            "-c",
            "find /run/containerd/runc/" + NAMESPACE + " /run/containerd/s/" + shimSocketName()
                + " -printf '%p %y %m\\n' | sort"),
        exec(
            "sh",
            "-c",
            "sha256sum " + CONFLIST + " && cd /var/lib/cni/networks/" + NETWORK
                + " && find . -printf '%p %y %m %s\\n' | sort && find . -type f -print0 | sort -z"
                + " | xargs -0 sha256sum"));
  }

  /**
   * What of the container does not answer (empty when all does): a ping to its address from the
   * host's side of its bridge, and a command run in it through its containerd.
   */
  String unanswered() {
    List<String> failed = new ArrayList<>();
    ExecResult ping = sandbox.exec(
        List.of(HOME + "/bin/busybox", "ping", "-c", "1", "-W", "3", address), TIMEOUT);
    if (!ping.succeeded()) {
      failed.add(ping.describe());
    }
    ExecResult exec = sandbox.exec(
        ctr(
            "task",
            "exec",
            "--exec-id",
            "probe-" + System.nanoTime(),
            CONTAINER,
            "cat",
            "/proc/1/cmdline"),
        TIMEOUT);
    if (!exec.succeeded()) {
      failed.add(exec.describe());
    }
    return String.join("\n", failed);
  }

  /** Ends the container and the runtime and removes everything of them; for the test's end. */
  void remove() {
    sandbox.exec(ctr("task", "kill", "-s", "KILL", CONTAINER), TIMEOUT);
    sandbox.exec(List.of("sh", "-c", "sleep 1"), TIMEOUT);
    sandbox.exec(ctr("task", "delete", "-f", CONTAINER), TIMEOUT);
    sandbox.exec(ctr("container", "delete", CONTAINER), TIMEOUT);
    sandbox.systemctl("stop", UNIT);
    sandbox.exec(
        List.of(
            "sh",
            "-c",
            "ip link delete " + BRIDGE + "; for m in $(awk '$5 ~ \"^(" + STATE + "|" + ROOT
                + ")\" {print $5}' /proc/self/mountinfo | sort -r); do umount -l $m; done; rm -rf "
                + HOME + " " + STATE + " " + ROOT + " " + CONFLIST + " /var/lib/cni/networks/"
                + NETWORK + "; rmdir /sys/fs/cgroup" + CGROUP + " /sys/fs/cgroup/foreign-runtime"
                + " 2>/dev/null; rmdir /etc/cni/net.d /etc/cni /var/lib/cni/networks /var/lib/cni"
                + " 2>/dev/null; rm -rf /run/containerd/runc/" + NAMESPACE
                + "; for d in /run/containerd/fifo/*; do ls $d 2>/dev/null | grep -q '^" + CONTAINER
                + "-' && rm -rf $d; done; rm -f /run/containerd/s/*; rmdir /run/containerd/runc"
                + " /run/containerd/s /run/containerd/fifo /run/containerd 2>/dev/null; true"),
        TIMEOUT);
  }

  /**
   * The name of the shim's socket below {@code /run/containerd/s}, which containerd derives from
   * its address, the namespace and the container id whatever its own state directory.
   */
  static String shimSocketName() {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256")
              .digest((SOCKET + "/" + NAMESPACE + "/" + CONTAINER).getBytes(UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<String> ctr(String... args) {
    List<String> argv = new ArrayList<>(List.of(HOME + "/bin/ctr", "-a", SOCKET, "-n", NAMESPACE));
    argv.addAll(List.of(args));
    return argv;
  }

  private String exec(String... command) {
    return exec(List.of(command));
  }

  private String exec(List<String> command) {
    ExecResult result = sandbox.exec(command, TIMEOUT);
    return result.orThrow().stdout();
  }

  /** The runtime as the host shows it; equal before and after when nothing of it was touched. */
  record State(
      long containerdPid,
      long shimPid,
      long containerPid,
      String cgroup,
      String netns,
      String hostVeth,
      List<String> mounts,
      String sharedRunState,
      String cniFiles) {}
}
