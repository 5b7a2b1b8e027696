package dev.noneops.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Valid configurations in the upstream JSON shape, and a way to change one value by its JSON path. */
public final class ConfigFixtures {
  /** A self-signed EC certificate (CN=test-cluster-ca), PEM, base64. */
  public static final String CA_BASE64 =
      "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJpakNDQVRHZ0F3SUJBZ0lVQ1l0L3pheWM3TjJqNUZzQTBoYmRjVUF5T29Nd0NnWUlLb1pJemowRUF3SXcKR2pFWU1CWUdBMVVFQXd3UGRHVnpkQzFqYkhWemRHVnlMV05oTUNBWERUSTJNVEV6TURFd016UTBNbG9ZRHpJeApNall4TVRBMk1UQXpORFF5V2pBYU1SZ3dGZ1lEVlFRRERBOTBaWE4wTFdOc2RYTjBaWEl0WTJFd1dUQVRCZ2NxCmhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUlFuQlFQQzlWaVF6dml4V0dlVHpCMFg2b2Z5dE05QWNSdDBsSWMKQXN3RjlaVGFsOWl0QnBzOWErWlU5cHRzMkMxZ2hJT0kzenBrUW5oUmVBaldhb2JzbzFNd1VUQWRCZ05WSFE0RQpGZ1FVSkRGUkQ1YjJvckhNRk01c2poQkIvM0R0TFkwd0h3WURWUjBqQkJnd0ZvQVVKREZSRDViMm9ySE1GTTVzCmpoQkIvM0R0TFkwd0R3WURWUjBUQVFIL0JBVXdBd0VCL3pBS0JnZ3Foa2pPUFFRREFnTkhBREJFQWlCYm9WTDMKU0xvZE1wMFNtNE1MS0xnbW9RMU1qVVpoaTI0T3JUNk1Ea0tJUHdJZ1lWdk15cFN0S2xoT25OaEEyV2dtalZFUwo2TnVYWUNKRzd1Z0pKUHlSdU5jPQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";

  public static final String TOKEN = "abcdef.0123456789abcdef";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ConfigFixtures() {}

  /** The upstream bootstrap-token example. */
  public static String tokenJson() {
    return """
        {
          "MachineName": "worker-1",
          "Cluster": {
            "CaCertBase64": "%s",
            "ClusterDNS": "10.0.0.10",
            "Version": "v1.31.2"
          },
          "Kubelet": {
            "ApiServer": "api.example.com:6443",
            "Auth": { "BootstrapToken": "%s" },
            "Labels": { "example.com/pool": "blue", "tier": "" },
            "RegisterWithTaints": [ "dedicated=infra:NoSchedule" ]
          },
          "CRI": { "Containerd": { "Version": "" }, "Runc": {} },
          "CNI": {},
          "OCIImage": ""
        }
        """.formatted(CA_BASE64, TOKEN);
  }

  /** The upstream exec-credential example (client-go's camelCase inner keys). */
  public static String execJson() {
    return """
        {
          "MachineName": "worker-2",
          "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "1.30.4" },
          "Kubelet": {
            "ApiServer": "https://api.example.com:6443",
            "Auth": {
              "ExecCredential": {
                "command": "/usr/local/bin/token-helper",
                "args": ["get-token", "--audience", "kubelet"],
                "env": [ { "name": "REGION", "value": "west" } ],
                "apiVersion": "client.authentication.k8s.io/v1",
                "installHint": "install token-helper",
                "provideClusterInfo": true
              }
            },
            "Labels": null,
            "RegisterWithTaints": null
          },
          "CRI": { "Containerd": { "Version": "2.1.1" }, "Runc": { "Version": "1.2.5" } },
          "CNI": { "PluginVersion": "1.6.2" }
        }
        """.formatted(CA_BASE64);
  }

  public static ObjectNode tokenTree() {
    return tree(tokenJson());
  }

  public static ObjectNode execTree() {
    return tree(execJson());
  }

  public static ObjectNode tree(String json) {
    try {
      return (ObjectNode) MAPPER.readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static AgentConfig tokenConfig() {
    return AgentConfigParser.parse(bytes(tokenTree()));
  }

  public static AgentConfig execConfig() {
    return AgentConfigParser.parse(bytes(execTree()));
  }

  public static byte[] bytes(JsonNode tree) {
    try {
      return MAPPER.writeValueAsBytes(tree);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code root} with the value at dotted {@code path} (objects created as needed) set to
   * {@code value}: a String, Boolean, Number, List of Strings, JsonNode, or null for JSON null.
   */
  public static ObjectNode with(ObjectNode root, String path, Object value) {
    ObjectNode copy = root.deepCopy();
    String[] parts = path.split("\\.");
    ObjectNode parent = copy;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode next = parent.get(parts[i]);
      parent = next instanceof ObjectNode o ? o : parent.putObject(parts[i]);
    }
    String key = parts[parts.length - 1];
    if (value == null) {
      parent.putNull(key);
    } else if (value instanceof String s) {
      parent.put(key, s);
    } else if (value instanceof Boolean b) {
      parent.put(key, b);
    } else if (value instanceof Integer n) {
      parent.put(key, n);
    } else if (value instanceof List<?> list) {
      var array = parent.putArray(key);
      list.forEach(element -> array.add((String) element));
    } else if (value instanceof JsonNode node) {
      parent.set(key, node);
    } else {
      throw new IllegalArgumentException("unsupported fixture value " + value);
    }
    return copy;
  }

  /** {@code root} without the key at dotted {@code path}. */
  public static ObjectNode without(ObjectNode root, String path) {
    ObjectNode copy = root.deepCopy();
    String[] parts = path.split("\\.");
    ObjectNode parent = copy;
    for (int i = 0; i < parts.length - 1; i++) {
      parent = (ObjectNode) parent.get(parts[i]);
    }
    parent.remove(parts[parts.length - 1]);
    return copy;
  }

  /** A configuration parsed from {@code tree}. */
  public static AgentConfig config(ObjectNode tree) {
    return AgentConfigParser.parse(bytes(tree));
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
