package dev.noneops.core.node.internal.render;

import dev.noneops.core.layout.HostPaths;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The host tuning files: the sysctl presets kubelet's {@code --protect-kernel-defaults} expects
 * ({@code /etc/sysctl.d/99-kubernetes.conf}) and the kernel modules listed for boot
 * ({@code ModulesLoadPath}).
 */
public final class HostTuningRenderer {
  /** The sysctl keys and values, sorted by key. */
  public static final SortedMap<String, String> SYSCTLS =
      Collections.unmodifiableSortedMap(new TreeMap<>(Map.ofEntries(
          Map.entry("vm.overcommit_memory", "1"),
          Map.entry("vm.panic_on_oom", "0"),
          Map.entry("kernel.panic", "10"),
          Map.entry("kernel.panic_on_oops", "1"),
          Map.entry("kernel.keys.root_maxkeys", "1000000"),
          Map.entry("kernel.keys.root_maxbytes", "25000000"),
          Map.entry("net.bridge.bridge-nf-call-iptables", "1"),
          Map.entry("net.bridge.bridge-nf-call-ip6tables", "1"),
          Map.entry("net.ipv4.ip_forward", "1"),
          Map.entry("net.ipv4.conf.all.src_valid_mark", "1"),
          Map.entry("net.ipv4.conf.default.src_valid_mark", "1"),
          Map.entry("net.ipv4.conf.all.rp_filter", "0"),
          Map.entry("net.ipv4.conf.default.rp_filter", "0"))));

  /** The kernel modules, in load order: overlay, then br_netfilter (which the sysctls need). */
  public static final List<String> MODULES = List.of("overlay", "br_netfilter");

  private HostTuningRenderer() {}

  public static byte[] sysctl() {
    StringBuilder out = header();
    SYSCTLS.forEach((key, value) -> out.append(key).append('=').append(value).append('\n'));
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] modulesLoad() {
    StringBuilder out = header();
    MODULES.forEach(module -> out.append(module).append('\n'));
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static StringBuilder header() {
    return new StringBuilder(HostPaths.UNIT_MARKER).append('\n');
  }
}
