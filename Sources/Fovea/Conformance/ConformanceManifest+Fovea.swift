let foveaManifestText = """
# Fovea's ONNX backend node-test manifest (ONNX 1.12 suite, Debian libonnx-testdata).
# A plain name must pass `fovea conformance`; "- name: reason" is left out, with the reason.
# Every node test of an operator Fovea supports appears here (ConformanceTests checks it).

test_abs
test_add
test_add_bcast
- test_add_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_argmax_default_axis_example
test_argmax_default_axis_example_select_last_index
test_argmax_default_axis_random
test_argmax_default_axis_random_select_last_index
test_argmax_keepdims_example
test_argmax_keepdims_example_select_last_index
test_argmax_keepdims_random
test_argmax_keepdims_random_select_last_index
test_argmax_negative_axis_keepdims_example
test_argmax_negative_axis_keepdims_example_select_last_index
test_argmax_negative_axis_keepdims_random
test_argmax_negative_axis_keepdims_random_select_last_index
test_argmax_no_keepdims_example
test_argmax_no_keepdims_example_select_last_index
test_argmax_no_keepdims_random
test_argmax_no_keepdims_random_select_last_index
test_averagepool_1d_default
test_averagepool_2d_ceil
test_averagepool_2d_default
test_averagepool_2d_pads
test_averagepool_2d_pads_count_include_pad
test_averagepool_2d_precomputed_pads
test_averagepool_2d_precomputed_pads_count_include_pad
test_averagepool_2d_precomputed_same_upper
test_averagepool_2d_precomputed_strides
test_averagepool_2d_same_lower
test_averagepool_2d_same_upper
test_averagepool_2d_strides
test_averagepool_3d_default
test_basic_conv_with_padding
test_basic_conv_without_padding
test_batchnorm_epsilon
- test_batchnorm_epsilon_training_mode: training_mode=1 (batch statistics, running-mean outputs): Fovea runs inference only
test_batchnorm_example
- test_batchnorm_example_training_mode: training_mode=1 (batch statistics, running-mean outputs): Fovea runs inference only
- test_cast_BFLOAT16_to_FLOAT: bfloat16 tensors: Fovea reads FLOAT, DOUBLE, FLOAT16, INT64, INT32 and BOOL
test_cast_DOUBLE_to_FLOAT
test_cast_DOUBLE_to_FLOAT16
test_cast_FLOAT16_to_DOUBLE
test_cast_FLOAT16_to_FLOAT
- test_cast_FLOAT_to_BFLOAT16: bfloat16 tensors: Fovea reads FLOAT, DOUBLE, FLOAT16, INT64, INT32 and BOOL
test_cast_FLOAT_to_DOUBLE
test_cast_FLOAT_to_FLOAT16
- test_cast_FLOAT_to_STRING: string tensors: Fovea computes on numbers only
- test_cast_STRING_to_FLOAT: string tensors: Fovea computes on numbers only
- test_castlike_BFLOAT16_to_FLOAT_expanded: bfloat16 tensors: Fovea reads FLOAT, DOUBLE, FLOAT16, INT64, INT32 and BOOL
test_castlike_DOUBLE_to_FLOAT16_expanded
test_castlike_DOUBLE_to_FLOAT_expanded
test_castlike_FLOAT16_to_DOUBLE_expanded
test_castlike_FLOAT16_to_FLOAT_expanded
- test_castlike_FLOAT_to_BFLOAT16_expanded: bfloat16 tensors: Fovea reads FLOAT, DOUBLE, FLOAT16, INT64, INT32 and BOOL
test_castlike_FLOAT_to_DOUBLE_expanded
test_castlike_FLOAT_to_FLOAT16_expanded
- test_castlike_FLOAT_to_STRING_expanded: string tensors: Fovea computes on numbers only
- test_castlike_STRING_to_FLOAT_expanded: string tensors: Fovea computes on numbers only
test_ceil
test_ceil_example
test_celu
test_celu_expanded
test_clip
test_clip_default_inbounds
- test_clip_default_int8_inbounds: int8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
- test_clip_default_int8_max: int8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
- test_clip_default_int8_min: int8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_clip_default_max
test_clip_default_min
test_clip_example
test_clip_inbounds
test_clip_outbounds
test_clip_splitbounds
test_concat_1d_axis_0
test_concat_1d_axis_negative_1
test_concat_2d_axis_0
test_concat_2d_axis_1
test_concat_2d_axis_negative_1
test_concat_2d_axis_negative_2
test_concat_3d_axis_0
test_concat_3d_axis_1
test_concat_3d_axis_2
test_concat_3d_axis_negative_1
test_concat_3d_axis_negative_2
test_concat_3d_axis_negative_3
test_constant
test_constant_pad
test_constantofshape_float_ones
test_constantofshape_int_shape_zero
test_constantofshape_int_zeros
test_conv_with_autopad_same
test_conv_with_strides_and_asymmetric_padding
test_conv_with_strides_no_padding
test_conv_with_strides_padding
test_depthtospace_crd_mode
test_depthtospace_crd_mode_example
test_depthtospace_dcr_mode
test_depthtospace_example
test_div
test_div_bcast
test_div_example
- test_div_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_dropout_default
test_dropout_default_mask
test_dropout_default_mask_ratio
test_dropout_default_old
test_dropout_default_ratio
test_dropout_random_old
test_edge_pad
- test_elu: the model declares opset 6; Fovea reads opsets 7 to 21
- test_elu_default: the model declares opset 6; Fovea reads opsets 7 to 21
- test_elu_example: the model declares opset 6; Fovea reads opsets 7 to 21
test_equal
test_equal_bcast
test_erf
test_exp
test_exp_example
test_expand_dim_changed
test_expand_dim_unchanged
test_flatten_axis0
test_flatten_axis1
test_flatten_axis2
test_flatten_axis3
test_flatten_default_axis
test_flatten_negative_axis1
test_flatten_negative_axis2
test_flatten_negative_axis3
test_flatten_negative_axis4
test_floor
test_floor_example
test_gather_0
test_gather_1
test_gather_2d_indices
- test_gather_elements_0: uses GatherElements, which is not a Fovea op (Gather is)
- test_gather_elements_1: uses GatherElements, which is not a Fovea op (Gather is)
- test_gather_elements_negative_indices: uses GatherElements, which is not a Fovea op (Gather is)
test_gather_negative_indices
test_gemm_all_attributes
test_gemm_alpha
test_gemm_beta
test_gemm_default_matrix_bias
test_gemm_default_no_bias
test_gemm_default_scalar_bias
test_gemm_default_single_elem_vector_bias
test_gemm_default_vector_bias
test_gemm_default_zero_bias
test_gemm_transposeA
test_gemm_transposeB
- test_globalaveragepool: the model declares opset 1; Fovea reads opsets 7 to 21
- test_globalaveragepool_precomputed: the model declares opset 1; Fovea reads opsets 7 to 21
- test_globalmaxpool: the model declares opset 1; Fovea reads opsets 7 to 21
- test_globalmaxpool_precomputed: the model declares opset 1; Fovea reads opsets 7 to 21
test_greater
test_greater_bcast
test_greater_equal
test_greater_equal_bcast
- test_greater_equal_bcast_expanded: function-expanded form uses Or, which is not a Fovea op (the LessOrEqual/GreaterOrEqual node tests cover the op)
- test_greater_equal_expanded: function-expanded form uses Or, which is not a Fovea op (the LessOrEqual/GreaterOrEqual node tests cover the op)
- test_hardsigmoid: the model declares opset 6; Fovea reads opsets 7 to 21
- test_hardsigmoid_default: the model declares opset 6; Fovea reads opsets 7 to 21
- test_hardsigmoid_example: the model declares opset 6; Fovea reads opsets 7 to 21
test_hardswish
test_hardswish_expanded
test_identity
- test_identity_opt: optional-typed input (Optional(Sequence)): Fovea runs tensors only
- test_identity_sequence: sequence-typed input: Fovea runs tensors only
- test_instancenorm_epsilon: the model declares opset 6; Fovea reads opsets 7 to 21
- test_instancenorm_example: the model declares opset 6; Fovea reads opsets 7 to 21
test_layer_normalization_2d_axis0
test_layer_normalization_2d_axis0_expanded
test_layer_normalization_2d_axis1
test_layer_normalization_2d_axis1_expanded
test_layer_normalization_2d_axis_negative_1
test_layer_normalization_2d_axis_negative_1_expanded
test_layer_normalization_2d_axis_negative_2
test_layer_normalization_2d_axis_negative_2_expanded
test_layer_normalization_3d_axis0_epsilon
test_layer_normalization_3d_axis0_epsilon_expanded
test_layer_normalization_3d_axis1_epsilon
test_layer_normalization_3d_axis1_epsilon_expanded
test_layer_normalization_3d_axis2_epsilon
test_layer_normalization_3d_axis2_epsilon_expanded
test_layer_normalization_3d_axis_negative_1_epsilon
test_layer_normalization_3d_axis_negative_1_epsilon_expanded
test_layer_normalization_3d_axis_negative_2_epsilon
test_layer_normalization_3d_axis_negative_2_epsilon_expanded
test_layer_normalization_3d_axis_negative_3_epsilon
test_layer_normalization_3d_axis_negative_3_epsilon_expanded
test_layer_normalization_4d_axis0
test_layer_normalization_4d_axis0_expanded
test_layer_normalization_4d_axis1
test_layer_normalization_4d_axis1_expanded
test_layer_normalization_4d_axis2
test_layer_normalization_4d_axis2_expanded
test_layer_normalization_4d_axis3
test_layer_normalization_4d_axis3_expanded
test_layer_normalization_4d_axis_negative_1
test_layer_normalization_4d_axis_negative_1_expanded
test_layer_normalization_4d_axis_negative_2
test_layer_normalization_4d_axis_negative_2_expanded
test_layer_normalization_4d_axis_negative_3
test_layer_normalization_4d_axis_negative_3_expanded
test_layer_normalization_4d_axis_negative_4
test_layer_normalization_4d_axis_negative_4_expanded
test_layer_normalization_default_axis
test_layer_normalization_default_axis_expanded
test_leakyrelu
test_leakyrelu_default
test_leakyrelu_example
test_less
test_less_bcast
test_less_equal
test_less_equal_bcast
- test_less_equal_bcast_expanded: function-expanded form uses Or, which is not a Fovea op (the LessOrEqual/GreaterOrEqual node tests cover the op)
- test_less_equal_expanded: function-expanded form uses Or, which is not a Fovea op (the LessOrEqual/GreaterOrEqual node tests cover the op)
test_log
test_log_example
test_logsoftmax_axis_0
test_logsoftmax_axis_0_expanded
test_logsoftmax_axis_1
test_logsoftmax_axis_1_expanded
test_logsoftmax_axis_2
test_logsoftmax_axis_2_expanded
test_logsoftmax_default_axis
test_logsoftmax_default_axis_expanded
test_logsoftmax_example_1
test_logsoftmax_example_1_expanded
test_logsoftmax_large_number
test_logsoftmax_large_number_expanded
test_logsoftmax_negative_axis
test_logsoftmax_negative_axis_expanded
test_lrn
test_lrn_default
test_matmul_2d
test_matmul_3d
test_matmul_4d
test_max_example
test_max_float16
test_max_float32
test_max_float64
- test_max_int16: int16 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_max_int32: int32 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_max_int64: int64 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_max_int8: int8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_max_one_input
test_max_two_inputs
- test_max_uint16: uint16 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_max_uint32: uint32 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_max_uint64: uint64 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_max_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_maxpool_1d_default
test_maxpool_2d_ceil
test_maxpool_2d_default
test_maxpool_2d_dilations
test_maxpool_2d_pads
test_maxpool_2d_precomputed_pads
test_maxpool_2d_precomputed_same_upper
test_maxpool_2d_precomputed_strides
test_maxpool_2d_same_lower
test_maxpool_2d_same_upper
test_maxpool_2d_strides
- test_maxpool_2d_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_maxpool_3d_default
test_maxpool_with_argmax_2d_precomputed_pads
- test_maxpool_with_argmax_2d_precomputed_strides: storage_order=1 (column-major Indices): Fovea computes row-major Indices only
test_min_example
test_min_float16
test_min_float32
test_min_float64
- test_min_int16: int16 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_min_int32: int32 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_min_int64: int64 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_min_int8: int8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_min_one_input
test_min_two_inputs
- test_min_uint16: uint16 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_min_uint32: uint32 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_min_uint64: uint64 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_min_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_mod_broadcast
test_mod_int64_fmod
test_mod_mixed_sign_float16
test_mod_mixed_sign_float32
test_mod_mixed_sign_float64
- test_mod_mixed_sign_int16: int16 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_mod_mixed_sign_int32: int32 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
test_mod_mixed_sign_int64
- test_mod_mixed_sign_int8: int8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
- test_mod_uint16: uint16 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_mod_uint32: uint32 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_mod_uint64: uint64 tensors: Fovea computes in float32 (integer arithmetic is out of scope)
- test_mod_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_mul
test_mul_bcast
test_mul_example
- test_mul_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_mvn_expanded
test_neg
test_neg_example
- test_not_2d: the model declares opset 1; Fovea reads opsets 7 to 21
- test_not_3d: the model declares opset 1; Fovea reads opsets 7 to 21
- test_not_4d: the model declares opset 1; Fovea reads opsets 7 to 21
test_pow
test_pow_bcast_array
test_pow_bcast_scalar
test_pow_example
- test_pow_types_float: int64 X: Fovea computes in float32 (integer arithmetic is out of scope)
- test_pow_types_float32_int32: int32 operand: Fovea computes Pow on float32 tensors only
- test_pow_types_float32_int64: int64 operand: Fovea computes Pow on float32 tensors only
- test_pow_types_float32_uint32: uint32 operand: Fovea computes Pow on float32 tensors only
- test_pow_types_float32_uint64: uint64 operand: Fovea computes Pow on float32 tensors only
- test_pow_types_int: int64 exponent: Fovea computes Pow on float32 tensors only
- test_pow_types_int32_float32: int32 operand: Fovea computes Pow on float32 tensors only
- test_pow_types_int32_int32: int32 operand: Fovea computes Pow on float32 tensors only
- test_pow_types_int64_float32: int64 operand: Fovea computes Pow on float32 tensors only
- test_pow_types_int64_int64: int64 operand: Fovea computes Pow on float32 tensors only
test_prelu_broadcast
test_prelu_example
test_range_float_type_positive_delta
- test_range_float_type_positive_delta_expanded: function-expanded form uses Loop, which is not a Fovea op (the Range node tests cover the op)
test_range_int32_type_negative_delta
- test_range_int32_type_negative_delta_expanded: function-expanded form uses Loop, which is not a Fovea op (the Range node tests cover the op)
test_reciprocal
test_reciprocal_example
test_reduce_l2_default_axes_keepdims_example
test_reduce_l2_default_axes_keepdims_random
test_reduce_l2_do_not_keepdims_example
test_reduce_l2_do_not_keepdims_random
test_reduce_l2_keep_dims_example
test_reduce_l2_keep_dims_random
test_reduce_l2_negative_axes_keep_dims_example
test_reduce_l2_negative_axes_keep_dims_random
test_reduce_max_default_axes_keepdim_example
test_reduce_max_default_axes_keepdims_random
test_reduce_max_do_not_keepdims_example
test_reduce_max_do_not_keepdims_random
test_reduce_max_keepdims_example
test_reduce_max_keepdims_random
test_reduce_max_negative_axes_keepdims_example
test_reduce_max_negative_axes_keepdims_random
test_reduce_mean_default_axes_keepdims_example
test_reduce_mean_default_axes_keepdims_random
test_reduce_mean_do_not_keepdims_example
test_reduce_mean_do_not_keepdims_random
test_reduce_mean_keepdims_example
test_reduce_mean_keepdims_random
test_reduce_mean_negative_axes_keepdims_example
test_reduce_mean_negative_axes_keepdims_random
test_reduce_min_default_axes_keepdims_example
test_reduce_min_default_axes_keepdims_random
test_reduce_min_do_not_keepdims_example
test_reduce_min_do_not_keepdims_random
test_reduce_min_keepdims_example
test_reduce_min_keepdims_random
test_reduce_min_negative_axes_keepdims_example
test_reduce_min_negative_axes_keepdims_random
test_reduce_sum_default_axes_keepdims_example
test_reduce_sum_default_axes_keepdims_random
test_reduce_sum_do_not_keepdims_example
test_reduce_sum_do_not_keepdims_random
test_reduce_sum_empty_axes_input_noop_example
test_reduce_sum_empty_axes_input_noop_random
test_reduce_sum_keepdims_example
test_reduce_sum_keepdims_random
test_reduce_sum_negative_axes_keepdims_example
test_reduce_sum_negative_axes_keepdims_random
test_reduce_sum_square_default_axes_keepdims_example
test_reduce_sum_square_default_axes_keepdims_random
test_reduce_sum_square_do_not_keepdims_example
test_reduce_sum_square_do_not_keepdims_random
test_reduce_sum_square_keepdims_example
test_reduce_sum_square_keepdims_random
test_reduce_sum_square_negative_axes_keepdims_example
test_reduce_sum_square_negative_axes_keepdims_random
test_reflect_pad
test_relu
test_reshape_allowzero_reordered
test_reshape_extended_dims
test_reshape_negative_dim
test_reshape_negative_extended_dims
test_reshape_one_dim
test_reshape_reduced_dims
test_reshape_reordered_all_dims
test_reshape_reordered_last_dims
test_reshape_zero_and_negative_dim
test_reshape_zero_dim
- test_resize_downsample_scales_cubic: cubic mode is not supported: Fovea resizes in nearest and linear modes
- test_resize_downsample_scales_cubic_A_n0p5_exclude_outside: cubic mode is not supported: Fovea resizes in nearest and linear modes
- test_resize_downsample_scales_cubic_align_corners: cubic mode is not supported: Fovea resizes in nearest and linear modes
test_resize_downsample_scales_linear
test_resize_downsample_scales_linear_align_corners
test_resize_downsample_scales_nearest
- test_resize_downsample_sizes_cubic: cubic mode is not supported: Fovea resizes in nearest and linear modes
test_resize_downsample_sizes_linear_pytorch_half_pixel
test_resize_downsample_sizes_nearest
test_resize_downsample_sizes_nearest_tf_half_pixel_for_nn
- test_resize_tf_crop_and_resize: coordinate_transformation_mode tf_crop_and_resize (roi crop with extrapolation) is not supported: Fovea resizes whole tensors
- test_resize_upsample_scales_cubic: cubic mode is not supported: Fovea resizes in nearest and linear modes
- test_resize_upsample_scales_cubic_A_n0p5_exclude_outside: cubic mode is not supported: Fovea resizes in nearest and linear modes
- test_resize_upsample_scales_cubic_align_corners: cubic mode is not supported: Fovea resizes in nearest and linear modes
- test_resize_upsample_scales_cubic_asymmetric: cubic mode is not supported: Fovea resizes in nearest and linear modes
test_resize_upsample_scales_linear
test_resize_upsample_scales_linear_align_corners
test_resize_upsample_scales_nearest
- test_resize_upsample_sizes_cubic: cubic mode is not supported: Fovea resizes in nearest and linear modes
test_resize_upsample_sizes_nearest
test_resize_upsample_sizes_nearest_ceil_half_pixel
test_resize_upsample_sizes_nearest_floor_align_corners
test_resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric
test_scatternd
test_scatternd_add
test_scatternd_multiply
- test_selu: the model declares opset 6; Fovea reads opsets 7 to 21
- test_selu_default: the model declares opset 6; Fovea reads opsets 7 to 21
- test_selu_example: the model declares opset 6; Fovea reads opsets 7 to 21
test_shape
test_shape_clip_end
test_shape_clip_start
test_shape_end_1
test_shape_end_negative_1
test_shape_example
test_shape_start_1
test_shape_start_1_end_2
test_shape_start_1_end_negative_1
test_shape_start_negative_1
test_sigmoid
test_sigmoid_example
test_size
test_size_example
test_slice
test_slice_default_axes
test_slice_default_steps
test_slice_end_out_of_bounds
test_slice_neg
test_slice_neg_steps
test_slice_negative_axes
test_slice_start_out_of_bounds
test_softmax_axis_0
test_softmax_axis_0_expanded
test_softmax_axis_1
test_softmax_axis_1_expanded
test_softmax_axis_2
test_softmax_axis_2_expanded
test_softmax_default_axis
test_softmax_default_axis_expanded
test_softmax_example
test_softmax_example_expanded
test_softmax_large_number
test_softmax_large_number_expanded
test_softmax_negative_axis
test_softmax_negative_axis_expanded
- test_softplus: the model declares opset 1; Fovea reads opsets 7 to 21
- test_softplus_example: the model declares opset 1; Fovea reads opsets 7 to 21
- test_softsign: the model declares opset 1; Fovea reads opsets 7 to 21
- test_softsign_example: the model declares opset 1; Fovea reads opsets 7 to 21
test_spacetodepth
test_spacetodepth_example
test_split_equal_parts_1d
test_split_equal_parts_2d
test_split_equal_parts_default_axis
test_split_variable_parts_1d
test_split_variable_parts_2d
test_split_variable_parts_default_axis
test_split_zero_size_splits
test_sqrt
test_sqrt_example
test_squeeze
test_squeeze_negative_axes
test_sub
test_sub_bcast
test_sub_example
- test_sub_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_sum_example
test_sum_one_input
test_sum_two_inputs
test_tanh
test_tanh_example
test_tile
test_tile_precomputed
- test_training_dropout: training_mode=true (random dropout): Fovea runs inference only
- test_training_dropout_default: training_mode=true (random dropout): Fovea runs inference only
- test_training_dropout_default_mask: training_mode=true (random dropout): Fovea runs inference only
- test_training_dropout_mask: training_mode=true (random dropout): Fovea runs inference only
- test_training_dropout_zero_ratio: training_mode=true (random dropout): Fovea runs inference only
- test_training_dropout_zero_ratio_mask: training_mode=true (random dropout): Fovea runs inference only
test_transpose_all_permutations_0
test_transpose_all_permutations_1
test_transpose_all_permutations_2
test_transpose_all_permutations_3
test_transpose_all_permutations_4
test_transpose_all_permutations_5
test_transpose_default
test_unsqueeze_axis_0
test_unsqueeze_axis_1
test_unsqueeze_axis_2
test_unsqueeze_axis_3
test_unsqueeze_negative_axes
test_unsqueeze_three_axes
test_unsqueeze_two_axes
test_unsqueeze_unsorted_axes
test_upsample_nearest
test_where_example
test_where_long_example
"""
