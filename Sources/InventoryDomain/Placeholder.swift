public enum InventoryDomainPlaceholder {}
