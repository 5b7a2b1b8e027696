package dev.noneops.core.node.internal.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.goalstate.KubeletSpec;
import dev.noneops.core.layout.HostPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kubelet's kubeconfig, as YAML written by Jackson: cluster {@code cluster} (the CA file and the
 * API server), user {@code kubelet}, context {@code default}. With a bootstrap token it is the
 * bootstrap kubeconfig (kubelet then writes its own kubeconfig after TLS bootstrap); with an
 * exec credential it is the kubeconfig itself.
 */
public final class KubeconfigRenderer {
  /** The exec credential plugin is never interactive: kubelet has no terminal. */
  public static final String EXEC_INTERACTIVE_MODE = "Never";

  private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
      .build());

  private KubeconfigRenderer() {}

  /** A rendered kubeconfig and the path it belongs at. */
  public record Kubeconfig(Path path, byte[] content) {}

  public static Kubeconfig render(KubeletSpec spec, HostPaths paths) {
    Map<String, Object> cluster = new LinkedHashMap<>();
    cluster.put("certificate-authority", paths.apiServerCaCert().toString());
    cluster.put("server", spec.apiServer());
    Map<String, Object> context = new LinkedHashMap<>();
    context.put("cluster", "cluster");
    context.put("user", "kubelet");

    Map<String, Object> user = new LinkedHashMap<>();
    Path path;
    if (spec.auth() instanceof KubeletAuth.BootstrapToken token) {
      user.put("token", token.token());
      path = paths.bootstrapKubeconfig();
    } else {
      user.put("exec", exec((KubeletAuth.ExecCredential) spec.auth()));
      path = paths.kubeconfig();
    }

    Map<String, Object> root = new LinkedHashMap<>();
    root.put("apiVersion", "v1");
    root.put("kind", "Config");
    root.put("clusters", List.of(named("cluster", "cluster", cluster)));
    root.put("contexts", List.of(named("default", "context", context)));
    root.put("current-context", "default");
    root.put("preferences", Map.of());
    root.put("users", List.of(named("kubelet", "user", user)));
    try {
      return new Kubeconfig(path, YAML.writeValueAsString(root).getBytes(StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("kubeconfig cannot be written as YAML", e);
    }
  }

  private static Map<String, Object> exec(KubeletAuth.ExecCredential exec) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("apiVersion", exec.apiVersion());
    out.put("command", exec.command());
    out.put("args", exec.args());
    List<Map<String, Object>> env = new ArrayList<>();
    for (KubeletAuth.EnvVar var : exec.env()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", var.name());
      entry.put("value", var.value());
      env.add(entry);
    }
    out.put("env", env);
    if (!exec.installHint().isEmpty()) {
      out.put("installHint", exec.installHint());
    }
    out.put("provideClusterInfo", exec.provideClusterInfo());
    out.put("interactiveMode", EXEC_INTERACTIVE_MODE);
    return out;
  }

  private static Map<String, Object> named(String name, String key, Object value) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("name", name);
    entry.put(key, value);
    return entry;
  }
}
