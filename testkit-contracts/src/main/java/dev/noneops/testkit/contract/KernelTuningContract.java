package dev.noneops.testkit.contract;

import static dev.noneops.testkit.contract.ContractAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.kernel.KernelTuning;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@link KernelTuning} contract. A subclass supplies the port over a kernel whose presets it
 * controls (the real one runs in a network and mount namespace of its own, whose preset
 * directories hold only what the test writes, and sets only {@code net.*} keys of that network
 * namespace), a module that is loaded and one the kernel lacks where the host can tell.
 */
public abstract class KernelTuningContract {
  private static final String FORWARD = "net.ipv4.ip_forward";
  private static final String MISSING_KEY = "net.ipv4.noneops_no_such_key";

  protected abstract KernelTuning tuning();

  /** Writes the preset {@code /etc/sysctl.d/<name>} of the kernel under test. */
  protected abstract void writePreset(String name, String content) throws IOException;

  /** A module that is loaded now; empty where there is none (a kernel without loadable modules). */
  protected abstract Optional<String> loadedModule() throws IOException;

  /** A module name the kernel has no module for; empty where the host cannot load modules at all. */
  protected abstract Optional<String> missingModule() throws IOException;

  /** A module loaded or built into the kernel; empty when the suite cannot name one. */
  protected abstract Optional<String> moduleInForce() throws IOException;

  @Test
  void aSysctlTheKernelHasIsReadAndOneItLacksIsEmpty() throws IOException {
    assertThat(tuning().sysctl(FORWARD)).hasValueSatisfying(v -> assertThat(v).isIn("0", "1"));
    assertThat(tuning().sysctl(MISSING_KEY)).isEmpty();
  }

  @Test
  void thePresetsAreAppliedNowAndAgainWhenTheyChange() throws IOException {
    writePreset("50-contract.conf", "# the contract's preset\n" + FORWARD + " = 1\n");
    tuning().applySysctlPresets();
    assertThat(tuning().sysctl(FORWARD)).contains("1");

    writePreset("50-contract.conf", FORWARD + " = 0\n");
    tuning().applySysctlPresets();
    assertThat(tuning().sysctl(FORWARD)).contains("0");
  }

  @Test
  void aPresetKeyTheKernelLacksDoesNotStopTheOthersAndFailsAtMostWithEnoent() throws IOException {
    writePreset("50-contract.conf", MISSING_KEY + " = 1\n" + FORWARD + " = 1\n");
    try {
      tuning().applySysctlPresets();
    } catch (HostIOException e) {
      assertThat(e.errno()).as(e.getMessage()).isEqualTo(Errno.ENOENT);
    }
    assertThat(tuning().sysctl(FORWARD)).contains("1");
  }

  @Test
  void aMissingKeyMarkedWithADashNeverFails() throws IOException {
    writePreset("50-contract.conf", "-" + MISSING_KEY + " = 1\n" + FORWARD + " = 1\n");
    tuning().applySysctlPresets();
    assertThat(tuning().sysctl(FORWARD)).contains("1");
  }

  @Test
  void loadingALoadedModuleChangesNothing() throws IOException {
    Optional<String> module = loadedModule();
    assumeTrue(module.isPresent(), "no module is loaded on this kernel");
    tuning().loadModule(module.get());
    tuning().loadModule(module.get());
  }

  @Test
  void aModuleInForceIsAvailableAndOneTheKernelLacksIsNot() throws IOException {
    Optional<String> inForce = moduleInForce();
    assumeTrue(inForce.isPresent(), "no module is loaded or built in on this kernel");
    assertThat(tuning().moduleAvailable(inForce.get())).isTrue();
    assertThat(tuning().moduleAvailable(missingModule().orElse("noneops_no_such_module")))
        .isFalse();
  }

  @Test
  void aModuleTheKernelLacksIsEnoent() throws IOException {
    Optional<String> module = missingModule();
    assumeTrue(module.isPresent(), "this host cannot load modules");
    failsWith(() -> tuning().loadModule(module.get()), Errno.ENOENT);
  }

  @Test
  void namesTheKernelCannotHaveAreRefusedBeforeTheHostIsAsked() {
    assertThatThrownBy(() -> tuning().loadModule("../evil"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'../evil'");
    assertThatThrownBy(() -> tuning().sysctl("net ipv4"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tuning().sysctl("../../etc/passwd"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
