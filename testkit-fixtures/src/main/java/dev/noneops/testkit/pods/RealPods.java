package dev.noneops.testkit.pods;

import dev.noneops.testkit.sandbox.CommandResult;
import dev.noneops.testkit.sandbox.SystemdSandbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts and inspects {@link RealPod}s through the node's own containerd with its own {@code ctr}
 * ({@code ctr run --cni}: kubelet itself is a stand-in, since no package ships it), and writes the
 * pod network's CNI configuration as a CNI agent would.
 */
public final class RealPods {
  public static final String NETWORK = "noneops-pods";
  public static final String BRIDGE = "nopods0";
  public static final String SUBNET = "10.231.7.0/24";
  public static final String GATEWAY = "10.231.7.1";
  public static final String IMAGE = "registry.noneops.test/busybox:1";
  public static final String CONFLIST = "/etc/cni/net.d/10-noneops-pods.conflist";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern INET = Pattern.compile("inet (\\d+\\.\\d+\\.\\d+\\.\\d+)/");

  private final SystemdSandbox sandbox;
  private final String ctr;
  private final String runc;

  /** Pods of {@code sandbox}'s node, run with its {@code ctr} and {@code runc} (absolute paths inside). */
  public RealPods(SystemdSandbox sandbox, String ctr, String runc) {
    this.sandbox = sandbox;
    this.ctr = ctr;
    this.runc = runc;
  }

  /** The bridge network configuration in {@code /etc/cni/net.d}, as a CNI agent writes it. */
  public void writeNetworkConfiguration() {
    String conflist = """
        {"cniVersion": "0.4.0", "name": "%s", "plugins": [
          {"type": "bridge", "bridge": "%s", "isGateway": true, "ipMasq": false,
           "ipam": {"type": "host-local", "ranges": [[{"subnet": "%s", "gateway": "%s"}]]}},
          {"type": "portmap", "capabilities": {"portMappings": true}}]}
        """.formatted(NETWORK, BRIDGE, SUBNET, GATEWAY);
    exec(
        "sh",
        "-c",
        "mkdir -p /etc/cni/net.d && cat > " + CONFLIST + " <<'EOF'\n" + conflist + "EOF\n");
  }

  /** Starts a pod whose {@code /data} is its volume {@code volume} (created when missing). */
  public RealPod start(String id, String uid, String volume, String... command) {
    String volumeDir = "/var/lib/kubelet/pods/" + uid + "/volumes/" + volume;
    exec("mkdir", "-p", volumeDir);
    List<String> run = new ArrayList<>(List.of(
        ctr,
        "-n",
        "k8s.io",
        "run",
        "-d",
        "--cni",
        "--cpu-shares",
        "0",
        "--runc-binary",
        runc,
        "--cgroup",
        "/kubepods/besteffort/pod" + uid + "/" + id,
        "--mount",
        "type=bind,src=" + volumeDir + ",dst=/data,options=rbind:rw",
        IMAGE,
        id));
    run.addAll(command.length == 0 ? List.of("/bin/sleep", "2147483647") : List.of(command));
    exec(run);
    long pid = taskPid(id).orElseThrow(() -> new IllegalStateException("no task " + id + " runs"));
    long shim =
        Long.parseLong(exec("sh", "-c", "cut -d' ' -f4 /proc/" + pid + "/stat").strip());
    String netns = exec("readlink", "/proc/" + pid + "/ns/net").strip();
    String addr = exec(
        "nsenter",
        "--target",
        Long.toString(pid),
        "--net",
        "ip",
        "-4",
        "-o",
        "addr",
        "show",
        "dev",
        "eth0");
    Matcher inet = INET.matcher(addr);
    if (!inet.find()) {
      throw new IllegalStateException("pod " + id + " has no IPv4 address on eth0: " + addr);
    }
    String link = exec(
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
    Matcher peer = Pattern.compile("eth0@if(\\d+)").matcher(link);
    if (!peer.find()) {
      throw new IllegalStateException("pod " + id + "'s eth0 is no veth: " + link);
    }
    String hostVeth = exec("ip", "-o", "link", "show")
        .lines()
        .filter(l -> l.startsWith(peer.group(1) + ": "))
        .map(l -> l.split(": ")[1].split("@")[0])
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no host end of " + id + "'s veth"));
    return new RealPod(id, uid, pid, shim, netns, inet.group(1), hostVeth);
  }

  /** The pid of task {@code id}, when it runs. */
  public Optional<Long> taskPid(String id) {
    return exec(ctr, "-n", "k8s.io", "task", "ls")
        .lines()
        .map(l -> l.trim().split("\\s+"))
        .filter(cols -> cols.length >= 3 && cols[0].equals(id) && cols[2].equals("RUNNING"))
        .map(cols -> Long.parseLong(cols[1]))
        .findFirst();
  }

  /** Runs {@code command} in pod {@code id} ({@code ctr task exec}); its result. */
  public CommandResult execIn(String id, String... command) {
    List<String> argv = new ArrayList<>(List.of(
        ctr, "-n", "k8s.io", "task", "exec", "--exec-id", "probe-" + System.nanoTime(), id));
    argv.addAll(List.of(command));
    return sandbox.exec(argv, TIMEOUT);
  }

  /** Whether pod {@code id} reaches {@code address} ({@code ping} from inside it). */
  public boolean reaches(String id, String address) {
    return execIn(id, "ping", "-c", "1", "-W", "3", address).succeeded();
  }

  /** Runs {@code command} in the sandbox; its stdout. */
  public String exec(String... command) {
    return exec(List.of(command));
  }

  /**
   * Runs {@code command} in the sandbox; its stdout.
   *
   * @throws IllegalStateException when it fails
   */
  public String exec(List<String> command) {
    return sandbox.exec(command, TIMEOUT).orThrow().stdout();
  }
}
