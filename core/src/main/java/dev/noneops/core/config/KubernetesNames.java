package dev.noneops.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Kubernetes' syntax rules for label keys and values, taints and DNS names (as apimachinery's
 * validation implements them), and kubelet's rule on which {@code kubernetes.io} labels it may
 * set on its own node. Each check returns what is wrong, empty when nothing is.
 */
final class KubernetesNames {
  static final int LABEL_VALUE_MAX = 63;
  static final int NAME_PART_MAX = 63;
  static final int DNS1123_SUBDOMAIN_MAX = 253;

  static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  static final String NAME_CHARS =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  static final String SUBDOMAIN_CHARS =
      "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

  /** Labels kubelet may set in the kubernetes.io and k8s.io namespaces (kubelet's own list). */
  private static final Set<String> KUBELET_LABELS = Set.of(
      "kubernetes.io/hostname",
      "topology.kubernetes.io/zone",
      "topology.kubernetes.io/region",
      "failure-domain.beta.kubernetes.io/zone",
      "failure-domain.beta.kubernetes.io/region",
      "beta.kubernetes.io/instance-type",
      "node.kubernetes.io/instance-type",
      "kubernetes.io/os",
      "kubernetes.io/arch",
      "beta.kubernetes.io/os",
      "beta.kubernetes.io/arch");

  private static final List<String> KUBELET_NAMESPACES =
      List.of("kubelet.kubernetes.io", "node.kubernetes.io");

  private KubernetesNames() {}

  /** Problems of a qualified name ({@code [prefix/]name}), as apimachinery's IsQualifiedName. */
  static List<String> qualifiedNameProblems(String value) {
    List<String> problems = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        problems.add("prefix part must be non-empty");
      } else {
        for (String p : dns1123SubdomainProblems(prefix)) {
          problems.add("prefix part " + p);
        }
      }
    } else {
      problems.add(
          "must be a name with at most one '/' separating an optional DNS subdomain prefix");
      return problems;
    }
    if (name.isEmpty()) {
      problems.add("name part must be non-empty");
    } else {
      if (name.length() > NAME_PART_MAX) {
        problems.add("name part must be no more than " + NAME_PART_MAX + " characters");
      }
      if (!NAME.matcher(name).matches()) {
        problems.add("name part " + NAME_CHARS);
      }
    }
    return problems;
  }

  /** Problems of a label value, as apimachinery's IsValidLabelValue. */
  static List<String> labelValueProblems(String value) {
    List<String> problems = new ArrayList<>();
    if (value.length() > LABEL_VALUE_MAX) {
      problems.add("must be no more than " + LABEL_VALUE_MAX + " characters");
    }
    if (!value.isEmpty() && !NAME.matcher(value).matches()) {
      problems.add("must be empty or " + NAME_CHARS.substring("must ".length()));
    }
    return problems;
  }

  /** Problems of a lowercase RFC 1123 subdomain. */
  static List<String> dns1123SubdomainProblems(String value) {
    List<String> problems = new ArrayList<>();
    if (value.length() > DNS1123_SUBDOMAIN_MAX) {
      problems.add("must be no more than " + DNS1123_SUBDOMAIN_MAX + " characters");
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      problems.add(SUBDOMAIN_CHARS);
    }
    return problems;
  }

  /**
   * Whether kubelet refuses to set label {@code key} on its node: keys in the
   * {@code kubernetes.io} or {@code k8s.io} namespaces other than kubelet's own list and the
   * {@code kubelet.kubernetes.io} and {@code node.kubernetes.io} namespaces. kubelet exits at
   * start-up when {@code --node-labels} holds one.
   */
  static boolean kubeletMayNotSet(String key) {
    int slash = key.indexOf('/');
    String namespace = slash < 0 ? "" : key.substring(0, slash);
    boolean kubernetesNamespace = namespace.equals("kubernetes.io")
        || namespace.endsWith(".kubernetes.io")
        || namespace.equals("k8s.io")
        || namespace.endsWith(".k8s.io");
    if (!kubernetesNamespace || KUBELET_LABELS.contains(key)) {
      return false;
    }
    for (String allowed : KUBELET_NAMESPACES) {
      if (namespace.equals(allowed) || namespace.endsWith("." + allowed)) {
        return false;
      }
    }
    return true;
  }

  /** A taint as kubelet's {@code --register-with-taints} takes it: {@code key[=value]:Effect}. */
  record Taint(String key, String value, String effect) {}

  /**
   * Parses {@code spec}, adding each problem to {@code problems}; returns the taint when its form
   * could be read (even if its parts have problems), else {@code null}.
   */
  static Taint parseTaint(String spec, List<String> problems) {
    String[] parts = spec.split(":", -1);
    String[] keyValue = parts.length == 2 ? parts[0].split("=", -1) : new String[0];
    if (parts.length != 2 || keyValue.length > 2) {
      problems.add("must have the form key[=value]:Effect, got " + ConfigText.quote(spec));
      return null;
    }
    Taint taint = new Taint(keyValue[0], keyValue.length == 2 ? keyValue[1] : "", parts[1]);
    for (String p : qualifiedNameProblems(taint.key())) {
      problems.add("key is not a qualified name: " + p);
    }
    for (String p : labelValueProblems(taint.value())) {
      problems.add("value is not a valid label value: " + p);
    }
    if (!TAINT_EFFECTS.contains(taint.effect())) {
      problems.add("effect must be one of " + String.join(", ", TAINT_EFFECTS) + ", got "
          + ConfigText.quote(taint.effect()));
    }
    return taint;
  }
}
