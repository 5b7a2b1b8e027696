package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.goalstate.KubeletSpec;
import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.render.ContainerdConfigRenderer;
import dev.noneops.core.node.internal.render.CorefileRenderer;
import dev.noneops.core.node.internal.render.HostTuningRenderer;
import dev.noneops.core.node.internal.render.KubeconfigRenderer;
import dev.noneops.core.node.internal.render.StackUnits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RenderersTest {
  private static final HostPaths PATHS = HostPaths.realHost();
  private static final Layout LAYOUT = Layout.defaultLayout();
  private static final String BIN = "/opt/unbounded/node/current/bin";
  private static final ContainerdSpec CONTAINERD = new ContainerdSpec(
      "mcr.microsoft.com/oss/kubernetes/pause:3.9",
      BIN + "/containerd",
      BIN + "/runc",
      "/opt/cni/bin",
      "/etc/cni/net.d",
      "0.0.0.0:10257",
      false);
  private static final LocalDnsSpec DNS = new LocalDnsSpec(
      BIN + "/coredns",
      "localdns0",
      "169.254.20.10",
      53,
      "cluster.local",
      "10.0.0.10",
      List.of("168.63.129.16", "2001:db8::1"));
  private static final KubeletSpec TOKEN_KUBELET = new KubeletSpec(
      BIN + "/kubelet",
      new KubeletAuth.BootstrapToken("abcdef.0123456789abcdef"),
      "https://api.example:443",
      "PEM".getBytes(StandardCharsets.UTF_8),
      "169.254.20.10",
      new TreeMap<>(Map.of("b", "2", "a", "1")),
      List.of("z=1:NoSchedule", "a=b:NoExecute"),
      "/etc/resolv.conf");

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  void containerdConfigIsVersionTwoWithBinariesUnderCurrent() {
    assertThat(text(ContainerdConfigRenderer.config(CONTAINERD))).isEqualTo("""
        # Managed by unbounded-agent (none)
        version = 2
        oom_score = 0
        imports = ['/etc/containerd/conf.d/*.toml']
        plugins.'io.containerd.grpc.v1.cri'.sandbox_image = 'mcr.microsoft.com/oss/kubernetes/pause:3.9'
        plugins.'io.containerd.grpc.v1.cri'.containerd.default_runtime_name = 'runc'
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.runc.runtime_type = 'io.containerd.runc.v2'
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.runc.options.BinaryName = '/opt/unbounded/node/current/bin/runc'
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.runc.options.NoNewKeyring = true
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.runc.options.SystemdCgroup = true
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.untrusted.runtime_type = 'io.containerd.runc.v2'
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.untrusted.options.BinaryName = '/opt/unbounded/node/current/bin/runc'
        plugins.'io.containerd.grpc.v1.cri'.cni.bin_dir = '/opt/cni/bin'
        plugins.'io.containerd.grpc.v1.cri'.cni.conf_dir = '/etc/cni/net.d'
        plugins.'io.containerd.grpc.v1.cri'.registry.config_path = '/etc/containerd/certs.d'
        plugins.'io.containerd.grpc.v1.cri'.registry.headers.X-Meta-Source-Client = ['unbounded-kube/kubelet']
        metrics.address = '0.0.0.0:10257'
        """);
  }

  @Test
  void tomlValuesAreQuotedByTheSerializer() {
    ContainerdSpec odd = new ContainerdSpec("img'\"\n", "/x", "/r'un\"c", "/c", "/d", "m", false);
    assertThat(text(ContainerdConfigRenderer.config(odd)))
        .contains("sandbox_image = \"img'\\\"\\n\"")
        .contains("BinaryName = \"/r'un\\\"c\"");
  }

  @Test
  void nvidiaDropInMakesNvidiaTheDefaultRuntimeWithCdi() {
    assertThat(text(ContainerdConfigRenderer.nvidiaDropIn())).isEqualTo("""
        # Managed by unbounded-agent (none)
        version = 2
        plugins.'io.containerd.grpc.v1.cri'.enable_cdi = true
        plugins.'io.containerd.grpc.v1.cri'.cdi_spec_dirs = ['/etc/cdi', '/var/run/cdi']
        plugins.'io.containerd.grpc.v1.cri'.containerd.default_runtime_name = 'nvidia'
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.nvidia.runtime_type = 'io.containerd.runc.v2'
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.nvidia.options.BinaryName = '/usr/bin/nvidia-container-runtime'
        plugins.'io.containerd.grpc.v1.cri'.containerd.runtimes.nvidia.options.SystemdCgroup = true
        """);
  }

  @Test
  void corefileForwardsTheClusterDomainAndEverythingElse() {
    assertThat(text(CorefileRenderer.render(DNS))).isEqualTo("""
        # Managed by unbounded-agent (none)
        cluster.local:53 {
            errors
            bind 169.254.20.10
            cache 30
            reload
            forward . 10.0.0.10
        }
        .:53 {
            errors
            bind 169.254.20.10
            cache 30
            reload
            forward . 168.63.129.16 [2001:db8::1]:53
        }
        """);
  }

  @Test
  void corefileWithoutUpstreamsServesTheClusterDomainOnly() {
    LocalDnsSpec none = new LocalDnsSpec(
        DNS.binPath(), "localdns0", "169.254.20.10", 53, "cluster.local", "10.0.0.10", List.of());
    assertThat(text(CorefileRenderer.render(none)))
        .doesNotContain(".:53")
        .contains("cluster.local:53 {");
  }

  @Test
  void corefileRefusesAnythingThatIsNotAnAddressOrADomain() {
    assertThatThrownBy(() -> CorefileRenderer.render(new LocalDnsSpec(
            "/c", "i", "169.254.20.10", 53, "cluster.local", "10.0.0.10 }\nevil {", List.of())))
        .hasMessageContaining("clusterDns");
    assertThatThrownBy(() -> CorefileRenderer.render(new LocalDnsSpec(
            "/c", "i", "169.254.20.10", 53, "cluster.local {", "10.0.0.10", List.of())))
        .hasMessageContaining("cluster domain");
    assertThatThrownBy(() -> CorefileRenderer.render(new LocalDnsSpec(
            "/c", "i", "169.254.20.10", 53, "cluster.local", "10.0.0.10", List.of("dns.google"))))
        .hasMessageContaining("upstream");
  }

  @Test
  void localDnsUnitRunsCoreDnsWithTheCorefileAndRecreatesItsInterface() {
    assertThat(text(StackUnits.localDns(DNS, PATHS.localDnsConfigDir().resolve("Corefile"))))
        .isEqualTo("""
        # Managed by unbounded-agent (none)

        [Unit]
        Description=Node-local DNS cache (LocalDNS)
        Wants=network-online.target
        After=network-online.target
        Before=kubelet.service

        [Service]
        Type=simple
        ExecStartPre=-/sbin/ip link add localdns0 type dummy
        ExecStartPre=-/sbin/ip addr add 169.254.20.10/32 dev localdns0
        ExecStartPre=/sbin/ip link set localdns0 up
        ExecStart=/opt/unbounded/node/current/bin/coredns -conf /etc/unbounded/localdns/Corefile
        Restart=always
        RestartSec=1
        LimitNOFILE=1048576

        [Install]
        WantedBy=multi-user.target
        """);
  }

  @Test
  void containerdUnitAsUpstreamWithTheBinaryUnderCurrent() {
    assertThat(text(StackUnits.containerd(CONTAINERD, PATHS.containerdConfig())))
        .isEqualTo("""
        # Managed by unbounded-agent (none)

        [Unit]
        Description=containerd container runtime
        Documentation=https://containerd.io
        After=network.target local-fs.target

        [Service]
        ExecStartPre=-/sbin/modprobe overlay
        ExecStart=/opt/unbounded/node/current/bin/containerd --config /etc/containerd/config.toml
        Type=notify
        Delegate=yes
        KillMode=process
        Restart=always
        RestartSec=1
        RestartMaxDelaySec=60
        RestartSteps=10
        LimitNPROC=infinity
        LimitCORE=infinity
        LimitNOFILE=infinity
        TasksMax=infinity
        OOMScoreAdjust=-999

        [Install]
        WantedBy=multi-user.target
        """);
  }

  @Test
  void kubeletUnitCarriesTheFixedFlagsAndTheDropInVariables() {
    assertThat(text(StackUnits.kubelet(TOKEN_KUBELET, DNS, PATHS))).isEqualTo("""
        # Managed by unbounded-agent (none)

        [Unit]
        Description=kubelet: The Kubernetes Node Agent
        Documentation=https://kubernetes.io/docs/
        ConditionPathExists=/opt/unbounded/node/current/bin/kubelet
        Wants=network-online.target containerd.service localdns.service
        After=network-online.target containerd.service localdns.service

        [Service]
        ExecStart=/opt/unbounded/node/current/bin/kubelet \\
            --config= \\
            --enable-server \\
            --volume-plugin-dir=/etc/kubernetes/volumeplugins \\
            --pod-manifest-path=/etc/kubernetes/manifests/ \\
            --runtime-request-timeout=15m \\
            --container-runtime-endpoint=unix:///run/containerd/containerd.sock \\
            --address=0.0.0.0 \\
            --anonymous-auth=false \\
            --authentication-token-webhook=true \\
            --authorization-mode=Webhook \\
            --cgroup-driver=systemd \\
            --cgroups-per-qos=true \\
            --enforce-node-allocatable=pods \\
            --cluster-domain=cluster.local \\
            --event-qps=0 \\
            --node-status-update-frequency=10s \\
            --pod-max-pids=-1 \\
            --protect-kernel-defaults=true \\
            --read-only-port=0 \\
            --resolv-conf=/etc/resolv.conf \\
            --streaming-connection-idle-timeout=4h \\
            --tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,\
        TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305,\
        TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_RSA_WITH_AES_256_GCM_SHA384,TLS_RSA_WITH_AES_128_GCM_SHA256 \\
            $KUBELET_NODE_CONFIG_ARGS \\
            $KUBELET_TUNING_ARGS \\
            $KUBELET_KUBECONFIG_ARGS \\
            $KUBELET_EXTRA_ARGS
        Restart=always
        RestartSec=1
        RestartMaxDelaySec=60
        RestartSteps=10
        SuccessExitStatus=143

        [Install]
        WantedBy=multi-user.target
        """);
  }

  @Test
  void kubeletDropInsCarryKubeconfigNodeConfigAndTheEnvironmentFile() {
    Map<String, byte[]> dropIns = StackUnits.kubeletDropIns(TOKEN_KUBELET, PATHS);
    assertThat(dropIns.keySet())
        .containsExactly("10-kubeconfig.conf", "20-node-config.conf", "50-env-file.conf");
    assertThat(text(dropIns.get("10-kubeconfig.conf"))).isEqualTo("""
        # Managed by unbounded-agent (none)

        [Service]
        Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/var/lib/kubelet/bootstrap-kubeconfig \
        --kubeconfig=/var/lib/kubelet/kubeconfig --rotate-certificates=true"
        """);
    assertThat(text(dropIns.get("20-node-config.conf"))).isEqualTo("""
        # Managed by unbounded-agent (none)

        [Service]
        Environment="KUBELET_NODE_CONFIG_ARGS=--node-labels=a=1,b=2 --register-with-taints=a=b:NoExecute,z=1:NoSchedule \
        --client-ca-file=/etc/kubernetes/pki/apiserver-client-ca.crt --cluster-dns=169.254.20.10"
        """);
    assertThat(text(dropIns.get("50-env-file.conf"))).isEqualTo("""
        # Managed by unbounded-agent (none)

        [Service]
        EnvironmentFile=-/etc/default/kubelet
        """);
  }

  @Test
  void execCredentialDropsTheBootstrapFlag() {
    KubeletSpec exec = new KubeletSpec(
        BIN + "/kubelet",
        execAuth(),
        "https://api",
        new byte[] {1},
        "169.254.20.10",
        new TreeMap<>(),
        List.of(),
        "/etc/resolv.conf");
    assertThat(text(StackUnits.kubeletDropIns(exec, PATHS).get("10-kubeconfig.conf")))
        .contains(
            "Environment=\"KUBELET_KUBECONFIG_ARGS=--kubeconfig=/var/lib/kubelet/kubeconfig --rotate-certificates=true\"");
  }

  @Test
  void aLabelWithWhitespaceCannotSmuggleAKubeletFlag() {
    KubeletSpec bad = new KubeletSpec(
        BIN + "/kubelet",
        TOKEN_KUBELET.auth(),
        "https://api",
        new byte[] {1},
        "169.254.20.10",
        new TreeMap<>(Map.of("a", "b --anonymous-auth=true")),
        List.of(),
        "/etc/resolv.conf");
    assertThatThrownBy(() -> StackUnits.kubeletDropIns(bad, PATHS))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void bootstrapKubeconfigCarriesTheToken() {
    KubeconfigRenderer.Kubeconfig rendered = KubeconfigRenderer.render(TOKEN_KUBELET, PATHS);
    assertThat(rendered.path()).isEqualTo(PATHS.bootstrapKubeconfig());
    assertThat(text(rendered.content())).isEqualTo("""
        apiVersion: v1
        kind: Config
        clusters:
        - name: cluster
          cluster:
            certificate-authority: /etc/kubernetes/pki/apiserver-client-ca.crt
            server: https://api.example:443
        contexts:
        - name: default
          context:
            cluster: cluster
            user: kubelet
        current-context: default
        preferences: {}
        users:
        - name: kubelet
          user:
            token: abcdef.0123456789abcdef
        """);
  }

  @Test
  void execKubeconfigCarriesTheNonInteractivePlugin() {
    KubeletSpec exec = new KubeletSpec(
        BIN + "/kubelet",
        execAuth(),
        "https://api.example:443",
        new byte[] {1},
        "169.254.20.10",
        new TreeMap<>(),
        List.of(),
        "/etc/resolv.conf");
    KubeconfigRenderer.Kubeconfig rendered = KubeconfigRenderer.render(exec, PATHS);
    assertThat(rendered.path()).isEqualTo(PATHS.kubeconfig());
    assertThat(text(rendered.content())).endsWith("""
        users:
        - name: kubelet
          user:
            exec:
              apiVersion: client.authentication.k8s.io/v1
              command: /usr/bin/get-token
              args:
              - --audience
              - x y
              env:
              - name: A
                value: "true"
              provideClusterInfo: false
              interactiveMode: Never
        """);
  }

  @Test
  void sysctlPresetsAreSortedByKey() {
    assertThat(text(HostTuningRenderer.sysctl())).isEqualTo("""
        # Managed by unbounded-agent (none)
        kernel.keys.root_maxbytes=25000000
        kernel.keys.root_maxkeys=1000000
        kernel.panic=10
        kernel.panic_on_oops=1
        net.bridge.bridge-nf-call-ip6tables=1
        net.bridge.bridge-nf-call-iptables=1
        net.ipv4.conf.all.rp_filter=0
        net.ipv4.conf.all.src_valid_mark=1
        net.ipv4.conf.default.rp_filter=0
        net.ipv4.conf.default.src_valid_mark=1
        net.ipv4.ip_forward=1
        vm.overcommit_memory=1
        vm.panic_on_oom=0
        """);
  }

  @Test
  void modulesLoadListsOverlayThenBrNetfilter() {
    assertThat(text(HostTuningRenderer.modulesLoad())).isEqualTo("""
        # Managed by unbounded-agent (none)
        overlay
        br_netfilter
        """);
  }

  @Test
  void kubeletsResolvConfIsExactlyTheFileOfItsSpec() {
    KubeletSpec resolved = new KubeletSpec(
        TOKEN_KUBELET.kubeletBinPath(),
        TOKEN_KUBELET.auth(),
        TOKEN_KUBELET.apiServer(),
        TOKEN_KUBELET.caCertPem(),
        TOKEN_KUBELET.clusterDns(),
        TOKEN_KUBELET.nodeLabels(),
        TOKEN_KUBELET.registerWithTaints(),
        "/run/systemd/resolve/resolv.conf");
    String plain = text(StackUnits.kubelet(TOKEN_KUBELET, DNS, PATHS));
    String flag = "\n    --resolv-conf=/etc/resolv.conf \\\n";

    assertThat(plain).containsOnlyOnce(flag).doesNotContain("/run/systemd/resolve");
    assertThat(text(StackUnits.kubelet(resolved, DNS, PATHS)))
        .isEqualTo(
            plain.replace(flag, "\n    --resolv-conf=/run/systemd/resolve/resolv.conf \\\n"));
  }

  @Test
  void renderingIsDeterministic() {
    assertThat(StackUnits.kubelet(TOKEN_KUBELET, DNS, PATHS))
        .isEqualTo(StackUnits.kubelet(TOKEN_KUBELET, DNS, PATHS));
    assertThat(ContainerdConfigRenderer.config(CONTAINERD))
        .isEqualTo(ContainerdConfigRenderer.config(CONTAINERD));
    assertThat(KubeconfigRenderer.render(TOKEN_KUBELET, PATHS).content())
        .isEqualTo(KubeconfigRenderer.render(TOKEN_KUBELET, PATHS).content());
  }

  private static KubeletAuth.ExecCredential execAuth() {
    return new KubeletAuth.ExecCredential(
        "/usr/bin/get-token",
        List.of("--audience", "x y"),
        List.of(new KubeletAuth.EnvVar("A", "true")),
        "client.authentication.k8s.io/v1",
        "",
        false);
  }
}
