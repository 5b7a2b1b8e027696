package dev.noneops.core.node.internal.render;

import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.goalstate.KubeletSpec;
import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.layout.HostPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The systemd units of the node's stack: {@code localdns.service}, {@code containerd.service},
 * {@code kubelet.service} and kubelet's drop-ins, with the flags the containerised node uses and
 * binaries under the layout's {@code current/bin}.
 */
public final class StackUnits {
  public static final String DROP_IN_KUBECONFIG = "10-kubeconfig.conf";
  public static final String DROP_IN_NODE_CONFIG = "20-node-config.conf";
  public static final String DROP_IN_ENV_FILE = "50-env-file.conf";
  public static final String IP = "/sbin/ip";

  /** kubelet's TLS cipher suites: ECDHE/RSA with AES-GCM or ChaCha20. */
  public static final List<String> TLS_CIPHER_SUITES = List.of(
      "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305",
      "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
      "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305",
      "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
      "TLS_RSA_WITH_AES_256_GCM_SHA384",
      "TLS_RSA_WITH_AES_128_GCM_SHA256");

  private StackUnits() {}

  /**
   * {@code localdns.service}: CoreDNS with the node's Corefile. The dummy interface and its
   * address are (re)created before start, best effort, so the service also comes up after a
   * reboot, which drops both. Ordered before kubelet only (its pods resolve through it):
   * containerd does not use it, so the two start side by side.
   */
  public static byte[] localDns(LocalDnsSpec spec, Path corefile) {
    String address = spec.bindAddress() + "/32";
    return UnitFileWriter.render(UnitFile.builder()
        .section("Unit")
        .set("Description", "Node-local DNS cache (LocalDNS)")
        .set("Wants", "network-online.target")
        .set("After", "network-online.target")
        .set("Before", "kubelet.service")
        .section("Service")
        .set("Type", "simple")
        .exec(
            "ExecStartPre",
            UnitFile.Command.of(IP, "link", "add", spec.interfaceName(), "type", "dummy")
                .ignoringFailure())
        .exec(
            "ExecStartPre",
            UnitFile.Command.of(IP, "addr", "add", address, "dev", spec.interfaceName())
                .ignoringFailure())
        .exec("ExecStartPre", UnitFile.Command.of(IP, "link", "set", spec.interfaceName(), "up"))
        .exec("ExecStart", UnitFile.Command.of(spec.binPath(), "-conf", corefile.toString()))
        .set("Restart", "always")
        .set("RestartSec", "1")
        .set("LimitNOFILE", "1048576")
        .section("Install")
        .set("WantedBy", "multi-user.target")
        .build());
  }

  /** {@code containerd.service}. */
  public static byte[] containerd(ContainerdSpec spec, Path configToml) {
    return UnitFileWriter.render(UnitFile.builder()
        .section("Unit")
        .set("Description", "containerd container runtime")
        .set("Documentation", "https://containerd.io")
        .set("After", "network.target local-fs.target")
        .section("Service")
        .exec("ExecStartPre", UnitFile.Command.of("/sbin/modprobe", "overlay").ignoringFailure())
        .exec(
            "ExecStart",
            UnitFile.Command.of(spec.containerdBinPath(), "--config", configToml.toString()))
        .set("Type", "notify")
        .set("Delegate", "yes")
        .set("KillMode", "process")
        .set("Restart", "always")
        .set("RestartSec", "1")
        .set("RestartMaxDelaySec", "60")
        .set("RestartSteps", "10")
        .set("LimitNPROC", "infinity")
        .set("LimitCORE", "infinity")
        .set("LimitNOFILE", "infinity")
        .set("TasksMax", "infinity")
        .set("OOMScoreAdjust", "-999")
        .section("Install")
        .set("WantedBy", "multi-user.target")
        .build());
  }

  /**
   * {@code kubelet.service}: fixed flags, then the drop-ins' variables. It wants containerd and
   * LocalDNS and is ordered after both, so a start of all three in one request has systemd start
   * kubelet the moment containerd is ready. Wants, not {@code Requires=}: with {@code Requires=},
   * systemd 252 restarts a running kubelet whenever containerd restarts, automatically after a
   * crash too, and a kubelet whose start it refused because containerd's failed (at boot, say) is
   * never started once containerd's own {@code Restart=} brings it up, so the node would stay
   * without kubelet. The node's own start stops a kubelet that systemd started beside a failed
   * containerd ({@link StartPhase}).
   */
  public static byte[] kubelet(KubeletSpec spec, LocalDnsSpec localDns, HostPaths paths) {
    List<UnitFile.Arg> args = new ArrayList<>();
    for (String flag : List.of(
        "--config=",
        "--enable-server",
        "--volume-plugin-dir=" + paths.host("/etc/kubernetes/volumeplugins"),
        "--pod-manifest-path=" + paths.manifestsDir() + "/",
        "--runtime-request-timeout=15m",
        "--container-runtime-endpoint=unix:///run/containerd/containerd.sock",
        "--address=0.0.0.0",
        "--anonymous-auth=false",
        "--authentication-token-webhook=true",
        "--authorization-mode=Webhook",
        "--cgroup-driver=systemd",
        "--cgroups-per-qos=true",
        "--enforce-node-allocatable=pods",
        "--cluster-domain=" + localDns.clusterDomain(),
        "--event-qps=0",
        "--node-status-update-frequency=10s",
        "--pod-max-pids=-1",
        "--protect-kernel-defaults=true",
        "--read-only-port=0",
        "--resolv-conf=" + spec.resolvConf(),
        "--streaming-connection-idle-timeout=4h",
        "--tls-cipher-suites=" + String.join(",", TLS_CIPHER_SUITES))) {
      args.add(new UnitFile.Literal(flag));
    }
    for (String variable : List.of(
        "KUBELET_NODE_CONFIG_ARGS",
        "KUBELET_TUNING_ARGS",
        "KUBELET_KUBECONFIG_ARGS",
        "KUBELET_EXTRA_ARGS")) {
      args.add(new UnitFile.Variable(variable));
    }
    return UnitFileWriter.render(UnitFile.builder()
        .section("Unit")
        .set("Description", "kubelet: The Kubernetes Node Agent")
        .set("Documentation", "https://kubernetes.io/docs/")
        .set("ConditionPathExists", spec.kubeletBinPath())
        .set("Wants", "network-online.target containerd.service localdns.service")
        .set("After", "network-online.target containerd.service localdns.service")
        .section("Service")
        .exec("ExecStart", new UnitFile.Command("", spec.kubeletBinPath(), args))
        .set("Restart", "always")
        .set("RestartSec", "1")
        .set("RestartMaxDelaySec", "60")
        .set("RestartSteps", "10")
        .set("SuccessExitStatus", "143")
        .section("Install")
        .set("WantedBy", "multi-user.target")
        .build());
  }

  /** kubelet's drop-ins by file name: kubeconfig flags, node configuration, the environment file. */
  public static SortedMap<String, byte[]> kubeletDropIns(KubeletSpec spec, HostPaths paths) {
    List<String> kubeconfigArgs = new ArrayList<>();
    if (spec.auth() instanceof KubeletAuth.BootstrapToken) {
      kubeconfigArgs.add("--bootstrap-kubeconfig=" + paths.bootstrapKubeconfig());
    }
    kubeconfigArgs.add("--kubeconfig=" + paths.kubeconfig());
    kubeconfigArgs.add("--rotate-certificates=true");

    List<String> labels = new ArrayList<>();
    for (Map.Entry<String, String> label : spec.nodeLabels().entrySet()) {
      labels.add(label.getKey() + "=" + label.getValue());
    }
    List<String> nodeArgs = List.of(
        "--node-labels=" + String.join(",", labels),
        "--register-with-taints="
            + String.join(",", spec.registerWithTaints().stream().sorted().toList()),
        "--client-ca-file=" + paths.apiServerCaCert(),
        "--cluster-dns=" + spec.clusterDns());

    SortedMap<String, byte[]> dropIns = new TreeMap<>();
    dropIns.put(
        DROP_IN_KUBECONFIG,
        UnitFileWriter.render(UnitFile.builder()
            .section("Service")
            .envArgs("KUBELET_KUBECONFIG_ARGS", kubeconfigArgs)
            .build()));
    dropIns.put(
        DROP_IN_NODE_CONFIG,
        UnitFileWriter.render(UnitFile.builder()
            .section("Service")
            .envArgs("KUBELET_NODE_CONFIG_ARGS", nodeArgs)
            .build()));
    dropIns.put(
        DROP_IN_ENV_FILE,
        UnitFileWriter.render(UnitFile.builder()
            .section("Service")
            .set("EnvironmentFile", "-" + paths.kubeletDefaults())
            .build()));
    return dropIns;
  }
}
