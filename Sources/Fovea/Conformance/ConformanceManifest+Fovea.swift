let foveaManifestText = """
# Fovea's ONNX backend node-test manifest (ONNX 1.12 suite, Debian libonnx-testdata).
# A plain name must pass `fovea conformance`; "- name: reason" is left out, with the reason.
# Every node test of an operator Fovea supports appears here (ConformanceTests checks it).

test_add
test_add_bcast
- test_add_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
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
test_conv_with_autopad_same
test_conv_with_strides_and_asymmetric_padding
test_conv_with_strides_no_padding
test_conv_with_strides_padding
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
test_flatten_axis0
test_flatten_axis1
test_flatten_axis2
test_flatten_axis3
test_flatten_default_axis
test_flatten_negative_axis1
test_flatten_negative_axis2
test_flatten_negative_axis3
test_flatten_negative_axis4
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
- test_hardsigmoid: the model declares opset 6; Fovea reads opsets 7 to 21
- test_hardsigmoid_default: the model declares opset 6; Fovea reads opsets 7 to 21
- test_hardsigmoid_example: the model declares opset 6; Fovea reads opsets 7 to 21
test_hardswish
test_hardswish_expanded
test_identity
- test_identity_opt: optional-typed input (Optional(Sequence)): Fovea runs tensors only
- test_identity_sequence: sequence-typed input: Fovea runs tensors only
test_leakyrelu
test_leakyrelu_default
test_leakyrelu_example
test_logsoftmax_axis_0
- test_logsoftmax_axis_0_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_logsoftmax_axis_1
- test_logsoftmax_axis_1_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_logsoftmax_axis_2
- test_logsoftmax_axis_2_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_logsoftmax_default_axis
- test_logsoftmax_default_axis_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_logsoftmax_example_1
- test_logsoftmax_example_1_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_logsoftmax_large_number
- test_logsoftmax_large_number_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_logsoftmax_negative_axis
- test_logsoftmax_negative_axis_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_lrn
test_lrn_default
test_matmul_2d
test_matmul_3d
test_matmul_4d
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
test_mul
test_mul_bcast
test_mul_example
- test_mul_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_prelu_broadcast
test_prelu_example
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
test_softmax_axis_0
- test_softmax_axis_0_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_softmax_axis_1
- test_softmax_axis_1_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_softmax_axis_2
- test_softmax_axis_2_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_softmax_default_axis
- test_softmax_default_axis_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_softmax_example
- test_softmax_example_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_softmax_large_number
- test_softmax_large_number_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_softmax_negative_axis
- test_softmax_negative_axis_expanded: function-expanded form uses ReduceMax/ReduceSum/Exp/Log, which are not Fovea ops (the Softmax node tests cover the op)
test_squeeze
test_squeeze_negative_axes
test_sub
test_sub_bcast
test_sub_example
- test_sub_uint8: uint8 tensors: Fovea computes in float32 (int8/uint8 models are out of scope)
test_sum_example
test_sum_one_input
test_sum_two_inputs
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
"""
