enum FoveaImagePlaceholder {}
