package dev.noneops.testkit.archfixture;

/** Stands in for an adapter class that core must never reference. Test fixture only. */
public final class AdapterStandIn {
  private AdapterStandIn() {}
}
