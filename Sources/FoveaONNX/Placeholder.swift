enum FoveaONNXPlaceholder {}
