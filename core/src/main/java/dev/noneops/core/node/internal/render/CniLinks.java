package dev.noneops.core.node.internal.render;

import dev.noneops.core.layout.Layout;
import java.util.Collection;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The {@code /opt/cni/bin/<plugin>} links: each points at {@code current/libexec/cni/<plugin>}
 * (an absolute path through the {@code current} link), so flipping {@code current} switches
 * every plugin at once.
 */
public final class CniLinks {
  private static final Pattern PLUGIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

  private CniLinks() {}

  /** Link name → link target for each plugin, sorted by name. */
  public static SortedMap<String, String> plan(Collection<String> plugins, Layout layout) {
    SortedMap<String, String> links = new TreeMap<>();
    for (String plugin : plugins) {
      if (!PLUGIN.matcher(plugin).matches() || plugin.contains("..")) {
        throw new IllegalArgumentException("not a CNI plugin file name: '" + plugin + "'");
      }
      links.put(plugin, layout.currentCni().resolve(plugin).toString());
    }
    return links;
  }
}
