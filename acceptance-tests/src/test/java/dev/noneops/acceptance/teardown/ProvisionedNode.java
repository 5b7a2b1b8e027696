package dev.noneops.acceptance.teardown;

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
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.artifacts.SimulatedArtifacts;
import dev.noneops.testkit.host.SimHostFacts;
import java.nio.charset.StandardCharsets;
import org.slf4j.LoggerFactory;

/**
 * A node bootstrapped on a {@link SimulatedHost} the way the agent does it, through {@link Node}:
 * its artifacts published in the simulated repository, then provision, configure, kernel modules
 * and start.
 */
final class ProvisionedNode {
  /** A self-signed EC certificate (CN=test-cluster-ca), PEM, base64. */
  private static final String CA_BASE64 = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJpakNDQVRHZ0F3SUJBZ0lVQ1l0L3pheWM3TjJqNUZzQTBoYmRjVUF5T29Nd0NnWUlLb1pJemowRUF3SXcKR2pFWU1CWUdBMVVFQXd3UGRHVnpkQzFqYkhWemRHVnlMV05oTUNBWERUSTJNVEV6TURFd016UTBNbG9ZRHpJeApNall4TVRBMk1UQXpORFF5V2pBYU1SZ3dGZ1lEVlFRRERBOTBaWE4wTFdOc2RYTjBaWEl0WTJFd1dUQVRCZ2NxCmhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUlFuQlFQQzlWaVF6dml4V0dlVHpCMFg2b2Z5dE05QWNSdDBsSWMKQXN3RjlaVGFsOWl0QnBzOWErWlU5cHRzMkMxZ2hJT0kzenBrUW5oUmVBaldhb2JzbzFNd1VUQWRCZ05WSFE0RQpGZ1FVSkRGUkQ1YjJvckhNRk01c2poQkIvM0R0TFkwd0h3WURWUjBqQkJnd0ZvQVVKREZSRDViMm9ySE1GTTVzCmpoQkIvM0R0TFkwd0R3WURWUjBUQVFIL0JBVXdBd0VCL3pBS0JnZ3Foa2pPUFFRREFnTkhBREJFQWlCYm9WTDMKU0xvZE1wMFNtNE1MS0xnbW9RMU1qVVpoaTI0T3JUNk1Ea0tJUHdJZ1lWdk15cFN0S2xoT25OaEEyV2dtalZFUwo2TnVYWUNKRzd1Z0pKUHlSdU5jPQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";

  final SimulatedHost host = SimulatedHost.create();
  final Layout layout = Layout.defaultLayout();
  final HostPaths paths = HostPaths.realHost();

  static AgentConfig config() {
    String json = """
        {
          "MachineName": "worker-1",
          "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "v1.31.4" },
          "Kubelet": {
            "ApiServer": "https://api.example.com:6443",
            "Auth": { "BootstrapToken": "abcdef.0123456789abcdef" },
            "Labels": { "example.com/pool": "blue" },
            "RegisterWithTaints": []
          }
        }
        """.formatted(CA_BASE64);
    return AgentConfigParser.parseAndValidate(json.getBytes(StandardCharsets.UTF_8), "amd64");
  }

  /** Bootstraps a node of {@link #config()}. */
  Node bootstrap() {
    MachineGoalState goal = GoalStateResolver.resolve(config(), SimHostFacts.DEFAULT, layout);
    SimulatedArtifacts.publish(host, goal);
    Node node = new Node(Params.builder(host.ports())
        .goalState(goal)
        .log(LoggerFactory.getLogger(ProvisionedNode.class))
        .overrides(Overrides.builder().layout(layout).build())
        .build());
    node.provision();
    ConfigureResult changes = node.configure();
    node.loadKernelModules();
    node.start(false, changes);
    return node;
  }
}
