package dev.noneops.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.ConfigFixtures;
import dev.noneops.daemon.internal.MachineCallException;
import dev.noneops.daemon.internal.MachineRegistration;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.testkit.machine.SimMachineApi;
import dev.noneops.testkit.machine.SimMachineResource;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The daemon registers its Machine as upstream does: a minimal one, and only when there is none. */
class MachineRegistrationTest {
  /** Kubernetes 1.31.4, a bootstrap token, one node label and no taints. */
  private static final AgentConfig CONFIG = AgentConfigParser.parseAndValidate(
      """
      {
        "MachineName": "worker-1",
        "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "v1.31.4" },
        "Kubelet": {
          "ApiServer": "api.example.com:6443",
          "Auth": { "BootstrapToken": "abcdef.0123456789abcdef" },
          "Labels": { "example.com/pool": "blue" },
          "RegisterWithTaints": []
        },
        "CRI": { "Containerd": { "Version": "" }, "Runc": {} },
        "CNI": {},
        "LocalDNS": {},
        "OCIImage": ""
      }
      """.formatted(ConfigFixtures.CA_BASE64).getBytes(StandardCharsets.UTF_8), "amd64");

  private final SimMachineApi api = SimMachineApi.createWithDelivery(Runnable::run);
  private final SimMachineResource client = api.client();

  @Test
  void aNodeWithoutAMachineCreatesAMinimalOneFromItsConfiguration() {
    assertThat(new MachineRegistration(client).register(CONFIG))
        .isEqualTo(MachineRegistration.Outcome.CREATED);

    Machine machine = api.machine("worker-1").orElseThrow();
    assertThat(machine.spec().kubernetes().bootstrapTokenRef()).isEqualTo("bootstrap-token-abcdef");
    assertThat(machine.spec().kubernetes().nodeLabels())
        .containsExactly(Map.entry("example.com/pool", "blue"));
    assertThat(machine.spec().kubernetes().registerWithTaints())
        .isEqualTo(CONFIG.kubelet().registerWithTaints());
    assertThat(machine.spec().kubernetes().version())
        .as("the fleet sets the version")
        .isEmpty();
    assertThat(machine.status()).isEqualTo(MachineStatus.EMPTY);
  }

  @Test
  void anExistingMachineIsLeftAsItIs() {
    MachineSpec theirs = MachineSpec.EMPTY.withKubernetes(
        new KubernetesSpec("1.32.0", Map.of("pool", "red"), List.of(), "bootstrap-token-zzzzzz"));
    Machine before = api.put("worker-1", theirs);

    assertThat(new MachineRegistration(client).register(CONFIG))
        .isEqualTo(MachineRegistration.Outcome.ALREADY_REGISTERED);

    assertThat(api.machine("worker-1")).contains(before);
  }

  @Test
  void aClusterWithoutTheMachineCrdIsAClearError() {
    api.removeMachineType();

    assertThatThrownBy(() -> new MachineRegistration(client).register(CONFIG))
        .isInstanceOf(MachineCallException.class)
        .hasMessageContaining("Machine CRD");
  }

  @Test
  void theTokenRefIsTheTokensIdOnly() {
    assertThat(MachineRegistration.minimalSpec(CONFIG).kubernetes().bootstrapTokenRef())
        .isEqualTo("bootstrap-token-abcdef")
        .doesNotContain("0123456789abcdef");
  }
}
