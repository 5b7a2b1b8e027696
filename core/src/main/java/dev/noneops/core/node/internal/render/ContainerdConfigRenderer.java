package dev.noneops.core.node.internal.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.layout.HostPaths;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * containerd's {@code config.toml} (format version 2) and the NVIDIA runtime drop-in, rendered
 * with Jackson's TOML writer so every value is quoted by a TOML serializer, never by hand.
 */
public final class ContainerdConfigRenderer {
  /** The drop-in directory containerd imports ({@code imports = [...]}). */
  public static final String CONF_D_GLOB = "/etc/containerd/conf.d/*.toml";
  /** The NVIDIA runtime drop-in's file name inside {@code conf.d}. */
  public static final String NVIDIA_DROP_IN = "99-nvidia-runtime.toml";

  public static final String NVIDIA_RUNTIME_PATH = "/usr/bin/nvidia-container-runtime";
  public static final List<String> CDI_SPEC_DIRS = List.of("/etc/cdi", "/var/run/cdi");
  private static final String CRI = "io.containerd.grpc.v1.cri";
  private static final String RUNC_V2 = "io.containerd.runc.v2";
  private static final TomlMapper TOML = new TomlMapper();

  private ContainerdConfigRenderer() {}

  /** {@code /etc/containerd/config.toml}. */
  public static byte[] config(ContainerdSpec spec) {
    Map<String, Object> runcOptions = new LinkedHashMap<>();
    runcOptions.put("BinaryName", spec.runcBinaryPath());
    runcOptions.put("NoNewKeyring", true);
    runcOptions.put("SystemdCgroup", true);
    Map<String, Object> untrustedOptions = new LinkedHashMap<>();
    untrustedOptions.put("BinaryName", spec.runcBinaryPath());

    Map<String, Object> runtimes = new LinkedHashMap<>();
    runtimes.put("runc", runtime(runcOptions));
    runtimes.put("untrusted", runtime(untrustedOptions));
    Map<String, Object> containerd = new LinkedHashMap<>();
    containerd.put("default_runtime_name", "runc");
    containerd.put("runtimes", runtimes);

    Map<String, Object> cni = new LinkedHashMap<>();
    cni.put("bin_dir", spec.cniBinDir());
    cni.put("conf_dir", spec.cniConfDir());
    Map<String, Object> registry = new LinkedHashMap<>();
    registry.put("config_path", "/etc/containerd/certs.d");
    registry.put("headers", Map.of("X-Meta-Source-Client", List.of("unbounded-kube/kubelet")));

    Map<String, Object> cri = new LinkedHashMap<>();
    cri.put("sandbox_image", spec.sandboxImage());
    cri.put("containerd", containerd);
    cri.put("cni", cni);
    cri.put("registry", registry);

    Map<String, Object> root = new LinkedHashMap<>();
    root.put("version", 2);
    root.put("oom_score", 0);
    root.put("imports", List.of(CONF_D_GLOB));
    root.put("plugins", Map.of(CRI, cri));
    root.put("metrics", Map.of("address", spec.metricsAddress()));
    return toml(root);
  }

  /** {@code /etc/containerd/conf.d/99-nvidia-runtime.toml}: nvidia as the default runtime, CDI on. */
  public static byte[] nvidiaDropIn() {
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("BinaryName", NVIDIA_RUNTIME_PATH);
    options.put("SystemdCgroup", true);
    Map<String, Object> containerd = new LinkedHashMap<>();
    containerd.put("default_runtime_name", "nvidia");
    containerd.put("runtimes", Map.of("nvidia", runtime(options)));
    Map<String, Object> cri = new LinkedHashMap<>();
    cri.put("enable_cdi", true);
    cri.put("cdi_spec_dirs", CDI_SPEC_DIRS);
    cri.put("containerd", containerd);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("version", 2);
    root.put("plugins", Map.of(CRI, cri));
    return toml(root);
  }

  private static Map<String, Object> runtime(Map<String, Object> options) {
    Map<String, Object> runtime = new LinkedHashMap<>();
    runtime.put("runtime_type", RUNC_V2);
    runtime.put("options", options);
    return runtime;
  }

  private static byte[] toml(Map<String, Object> document) {
    try {
      return (HostPaths.UNIT_MARKER + "\n" + TOML.writeValueAsString(document))
          .getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("containerd configuration cannot be written as TOML", e);
    }
  }
}
