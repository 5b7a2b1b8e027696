package dev.noneops.testkit.commands;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * kubelet's {@code --protect-kernel-defaults=true} start-up check, as the simulated kernel sees
 * it: kubelet refuses to run while any of the kernel tunables it expects differs from its value
 * (kubelet's {@code setupKernelTunables}), and exits with the message kubelet prints. A key the
 * kernel has not been set is at the stock kernel's default.
 */
public final class KubeletKernelDefaults {
  /** What kubelet expects, in the order it checks. */
  public static final Map<String, String> EXPECTED = expected();

  /** The stock kernel's values of those keys (Debian 12, Linux 6.1). */
  public static final Map<String, String> STOCK = Map.of(
      "vm.overcommit_memory", "0",
      "vm.panic_on_oom", "0",
      "kernel.panic", "0",
      "kernel.panic_on_oops", "0",
      "kernel.keys.root_maxkeys", "1000000",
      "kernel.keys.root_maxbytes", "25000000");

  private final Function<String, Optional<String>> sysctl;

  /** @param sysctl the kernel's current value of a key, empty when never set */
  public KubeletKernelDefaults(Function<String, Optional<String>> sysctl) {
    this.sysctl = sysctl;
  }

  /** Why kubelet started with {@code argv} exits at once; empty when it runs. */
  public Optional<String> refusal(List<String> argv) {
    if (argv.isEmpty()
        || !baseName(argv.get(0)).equals("kubelet")
        || !argv.contains("--protect-kernel-defaults=true")) {
      return Optional.empty();
    }
    for (Map.Entry<String, String> e : EXPECTED.entrySet()) {
      String actual = sysctl.apply(e.getKey()).orElse(STOCK.get(e.getKey()));
      if (!e.getValue().equals(actual)) {
        return Optional.of(
            "failed to run Kubelet: invalid kernel flag: " + e.getKey().replace('.', '/')
                + ", expected value: " + e.getValue() + ", actual value: " + actual);
      }
    }
    return Optional.empty();
  }

  private static Map<String, String> expected() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("vm.overcommit_memory", "1");
    m.put("vm.panic_on_oom", "0");
    m.put("kernel.panic", "10");
    m.put("kernel.panic_on_oops", "1");
    m.put("kernel.keys.root_maxkeys", "1000000");
    m.put("kernel.keys.root_maxbytes", "25000000");
    return Collections.unmodifiableMap(m);
  }

  private static String baseName(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }
}
