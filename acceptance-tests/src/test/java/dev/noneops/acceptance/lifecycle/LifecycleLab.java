package dev.noneops.acceptance.lifecycle;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.goalstate.GoalStateResolver;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.artifacts.SimulatedArtifacts;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.host.SimHostFacts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.LoggerFactory;

/**
 * A simulated host, configurations built through {@link AgentConfigParser}, their artifacts
 * published in the simulated repository, and nodes bound to them: the stage of the lifecycle
 * scenarios.
 */
final class LifecycleLab {
  /** A self-signed EC certificate, PEM, base64. */
  static final String CA_BASE64 = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJpakNDQVRHZ0F3SUJBZ0lVQ1l0L3pheWM3TjJqNUZzQTBoYmRjVUF5T29Nd0NnWUlLb1pJemowRUF3SXcKR2pFWU1CWUdBMVVFQXd3UGRHVnpkQzFqYkhWemRHVnlMV05oTUNBWERUSTJNVEV6TURFd016UTBNbG9ZRHpJeApNall4TVRBMk1UQXpORFF5V2pBYU1SZ3dGZ1lEVlFRRERBOTBaWE4wTFdOc2RYTjBaWEl0WTJFd1dUQVRCZ2NxCmhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUlFuQlFQQzlWaVF6dml4V0dlVHpCMFg2b2Z5dE05QWNSdDBsSWMKQXN3RjlaVGFsOWl0QnBzOWErWlU5cHRzMkMxZ2hJT0kzenBrUW5oUmVBaldhb2JzbzFNd1VUQWRCZ05WSFE0RQpGZ1FVSkRGUkQ1YjJvckhNRk01c2poQkIvM0R0TFkwd0h3WURWUjBqQkJnd0ZvQVVKREZSRDViMm9ySE1GTTVzCmpoQkIvM0R0TFkwd0R3WURWUjBUQVFIL0JBVXdBd0VCL3pBS0JnZ3Foa2pPUFFRREFnTkhBREJFQWlCYm9WTDMKU0xvZE1wMFNtNE1MS0xnbW9RMU1qVVpoaTI0T3JUNk1Ea0tJUHdJZ1lWdk15cFN0S2xoT25OaEEyV2dtalZFUwo2TnVYWUNKRzd1Z0pKUHlSdU5jPQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";
  static final List<String> STACK = List.of("localdns.service", "containerd.service", "kubelet.service");

  final SimulatedHost host = SimulatedHost.create();
  final Layout layout = Layout.defaultLayout();
  final HostPaths paths = HostPaths.realHost();
  final List<NodeEvent> events = Collections.synchronizedList(new ArrayList<>());

  /** A valid configuration with the given node labels. */
  static AgentConfig config(Map<String, String> labels) {
    return config(labels, "{}");
  }

  /** A valid configuration with one node label and the given {@code Downloads} object. */
  static AgentConfig configWithDownloads(String downloadsJson) {
    return config(Map.of("example.com/pool", "blue"), downloadsJson);
  }

  private static AgentConfig config(Map<String, String> labels, String downloadsJson) {
    StringBuilder labelJson = new StringBuilder();
    new TreeMap<>(labels).forEach((k, v) -> labelJson.append(labelJson.length() == 0 ? "" : ", ").append('"').append(k).append("\": \"").append(v).append('"'));
    String json = """
        {
          "MachineName": "worker-1",
          "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "v1.31.4" },
          "Kubelet": {
            "ApiServer": "https://api.example.com:6443",
            "Auth": { "BootstrapToken": "abcdef.0123456789abcdef" },
            "Labels": { %s },
            "RegisterWithTaints": ["dedicated=infra:NoSchedule"]
          },
          "Downloads": %s
        }
        """.formatted(CA_BASE64, labelJson, downloadsJson);
    return AgentConfigParser.parseAndValidate(json.getBytes(StandardCharsets.UTF_8), "amd64");
  }

  static AgentConfig config() {
    return config(Map.of("example.com/pool", "blue"));
  }

  MachineGoalState goal(AgentConfig config) {
    return GoalStateResolver.resolve(config, SimHostFacts.DEFAULT, layout);
  }

  /** Publishes every artifact of {@code goal}, with the checksums it expects. */
  LifecycleLab publish(MachineGoalState goal) {
    SimulatedArtifacts.publish(host, goal);
    return this;
  }

  Node node(AgentConfig config) {
    return node(Params.builder(host.ports()).config(config));
  }

  Node node(MachineGoalState goal) {
    return node(Params.builder(host.ports()).goalState(goal));
  }

  Node node(Params.Builder params) {
    return new Node(params
        .log(LoggerFactory.getLogger("lifecycle"))
        .events(events::add)
        .overrides(Overrides.builder().layout(layout).build())
        .build());
  }

  /** Bootstrap as the agent does it: provision, configure, kernel modules, start. */
  Node bootstrap(MachineGoalState goal) {
    publish(goal);
    Node node = node(goal);
    node.provision();
    ConfigureResult changes = node.configure();
    node.loadKernelModules();
    node.start(false, changes);
    return node;
  }

  /** The journal's unit jobs and readiness waits, in order, e.g. {@code systemd.restart(kubelet.service)}. */
  List<String> unitJobsAndWaits() {
    List<String> out = new ArrayList<>();
    for (PortCall c : host.journal().calls()) {
      boolean job = c.port().equals("systemd") && List.of("start", "stop", "restart", "awaitState", "daemonReload", "enable").contains(c.method());
      boolean probe = c.port().equals("probes");
      boolean sleep = c.is("clock.sleep");
      if (job || probe || sleep) {
        out.add(c.name() + (c.args().isEmpty() ? "" : "(" + c.args().get(0) + ")"));
      }
    }
    return out;
  }

  /** Every mutating port call since the journal was last cleared. */
  List<PortCall> mutatingCalls() {
    return host.journal().mutatingCalls();
  }
}
